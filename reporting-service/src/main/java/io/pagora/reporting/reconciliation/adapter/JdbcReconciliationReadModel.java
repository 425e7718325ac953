package io.pagora.reporting.reconciliation.adapter;

import io.pagora.kernel.Id128;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.reporting.domain.ProjectionDigest;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel;
import io.pagora.reporting.reconciliation.domain.PaymentFlows;
import io.pagora.settlement.domain.BankId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The reconciliation's queries on schema {@code reporting}, each one index range scan or a primary key
 * look-up (see V1__reporting_schema.sql, V2__projection_order_and_account_flows.sql and V3__projection_digests.sql),
 * none growing with the payments table. Every statement runs under the service's statement timeout.
 */
public final class JdbcReconciliationReadModel implements ReconciliationReadModel {

    // Only rows of transactions older than the oldest one still running (pg_snapshot_xmin): every such
    // transaction has ended, so nothing can commit behind the last row answered. Concurrent consumers that
    // commit out of order are simply waited for. xid8 travels as text (an unsigned 64-bit number), under
    // another name: ORDER BY resolves an output column's name first, and must order by the xid8, not its digits.
    static final String PAYMENTS_PROJECTED_AFTER = """
            SELECT projected_xid::text AS projected_xid_digits, payment_id, payer_account_id, payee_account_id,
                   amount_centavos, status, accepted_at, projected_at
            FROM reporting.payments
            WHERE (projected_xid, payment_id) > (?::text::xid8, ?)
              AND projected_xid < pg_snapshot_xmin(pg_current_snapshot())
            ORDER BY projected_xid, payment_id
            LIMIT ?
            """;

    // Payments are projected roughly in acceptance order, not exactly (several consumers, outcome before
    // request): the start is the oldest transaction among the first START_WINDOW_PAYMENTS payments accepted
    // from the bound, a bounded primary-key range scan.
    private static final String FIRST_ACCEPTED_FROM = """
            SELECT projected_xid::text AS projected_xid_digits FROM (
                SELECT projected_xid FROM reporting.payments WHERE payment_id >= ? ORDER BY payment_id LIMIT ?
            ) first_accepted
            ORDER BY projected_xid
            LIMIT 1
            """;
    private static final int START_WINDOW_PAYMENTS = 10_000;

    private static final String OLDEST_RUNNING = "SELECT pg_snapshot_xmin(pg_current_snapshot())::text";

    private static final String ACCOUNT_FLOWS = """
            SELECT account_id, outgoing_centavos, incoming_centavos
            FROM reporting.account_flows
            WHERE account_id = ANY (?)
            """;

    private static final String BANK_FLOWS =
            "SELECT bank_ispb, sent_centavos, received_centavos FROM reporting.bank_flows";

    private static final String SETTLED_AMONG =
            "SELECT payment_id FROM reporting.payments WHERE payment_id = ANY (?) AND status = 'SETTLED'";

    private static final String SETTLED_PAYMENTS_OF = """
            SELECT p.payment_id, p.payer_account_id, p.payee_account_id, p.amount_centavos, p.status
            FROM (SELECT payment_id, final_at FROM reporting.statement_entries
                  WHERE account_id = ? ORDER BY final_at DESC LIMIT ?) e
            JOIN reporting.payments p USING (payment_id)
            ORDER BY e.final_at DESC
            """;

    private static final String DIGESTS_AFTER = "SELECT projected_xid::text FROM reporting.projection_digests_from";

    private static final String DIGESTS_OF = """
            SELECT projected_xid::text AS projected_xid_digits, payments, amount_centavos, fingerprint
            FROM reporting.projection_digests
            WHERE projected_xid = ANY (?::text[]::xid8[])
            """;

    private static final String PAYMENTS_INSERTED_BY = """
            SELECT payment_id, payer_account_id, payee_account_id, amount_centavos, status
            FROM reporting.payments
            WHERE projected_xid = ?::text::xid8
            ORDER BY payment_id
            LIMIT ?
            """;

    private final JdbcTemplate jdbc;

    public JdbcReconciliationReadModel(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<ProjectedPayment> paymentsProjectedAfter(ProjectionPosition after, int limit) {
        return jdbc.query(
                PAYMENTS_PROJECTED_AFTER,
                (row, i) -> new ProjectedPayment(
                        new ProjectionPosition(Long.parseLong(row.getString(1)), id(row, 2)),
                        new PaymentRow(
                                id(row, 2),
                                id(row, 3),
                                id(row, 4),
                                row.getLong(5),
                                PaymentStatus.valueOf(row.getString(6))),
                        instant(row, 7),
                        instant(row, 8)),
                Long.toString(after.transactionId()),
                after.paymentId().toUuid(),
                limit);
    }

    @Override
    public ProjectionPosition startPosition(Instant acceptedFrom) {
        Id128 firstId = new Id128(Math.max(0, acceptedFrom.toEpochMilli()) << 16, 0);
        List<String> first =
                jdbc.queryForList(FIRST_ACCEPTED_FROM, String.class, firstId.toUuid(), START_WINDOW_PAYMENTS);
        String transaction = first.isEmpty() ? jdbc.queryForObject(OLDEST_RUNNING, String.class) : first.getFirst();
        return ProjectionPosition.before(Long.parseLong(transaction));
    }

    @Override
    public FlowsSnapshot flowsAtOneSnapshot(List<Id128> customers, Supplier<List<Id128>> window) {
        return jdbc.execute((ConnectionCallback<FlowsSnapshot>) connection -> {
            boolean autoCommit = connection.getAutoCommit();
            int isolation = connection.getTransactionIsolation();
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            connection.setAutoCommit(false);
            boolean ended = false;
            try {
                // The first statement takes the snapshot: the window is looked up after it. Read-only, so the
                // transaction takes no xid and never holds back the walk in projection order (pg_snapshot_xmin).
                Map<Id128, PaymentFlows> accounts = accountFlows(connection, customers);
                Map<BankId, PaymentFlows> banks = bankFlows(connection);
                Set<Id128> settled = settledAmong(connection, window.get());
                connection.commit();
                ended = true;
                return new FlowsSnapshot(accounts, banks, settled);
            } finally {
                if (!ended) {
                    connection.rollback();
                }
                connection.setAutoCommit(autoCommit);
                connection.setTransactionIsolation(isolation);
            }
        });
    }

    private static Map<Id128, PaymentFlows> accountFlows(Connection connection, List<Id128> accounts)
            throws SQLException {
        Map<Id128, PaymentFlows> flows = new LinkedHashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(ACCOUNT_FLOWS)) {
            statement.setArray(1, uuids(connection, accounts));
            try (ResultSet row = statement.executeQuery()) {
                while (row.next()) {
                    flows.put(id(row, 1), new PaymentFlows(row.getLong(2), row.getLong(3)));
                }
            }
        }
        return flows;
    }

    private static Map<BankId, PaymentFlows> bankFlows(Connection connection) throws SQLException {
        Map<BankId, PaymentFlows> flows = new LinkedHashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(BANK_FLOWS);
                ResultSet row = statement.executeQuery()) {
            while (row.next()) {
                flows.put(new BankId(row.getInt(1)), new PaymentFlows(row.getLong(2), row.getLong(3)));
            }
        }
        return flows;
    }

    private static Set<Id128> settledAmong(Connection connection, List<Id128> payments) throws SQLException {
        Set<Id128> settled = new HashSet<>();
        if (payments.isEmpty()) {
            return settled;
        }
        try (PreparedStatement statement = connection.prepareStatement(SETTLED_AMONG)) {
            statement.setArray(1, uuids(connection, payments));
            try (ResultSet row = statement.executeQuery()) {
                while (row.next()) {
                    settled.add(id(row, 1));
                }
            }
        }
        return settled;
    }

    private static java.sql.Array uuids(Connection connection, List<Id128> ids) throws SQLException {
        return connection.createArrayOf("uuid", ids.stream().map(Id128::toUuid).toArray(UUID[]::new));
    }

    @Override
    public long digestsAfter() {
        return Long.parseLong(jdbc.queryForObject(DIGESTS_AFTER, String.class));
    }

    @Override
    public Map<Long, ProjectionDigest> digestsOf(List<Long> transactionIds) {
        Map<Long, ProjectionDigest> digests = new LinkedHashMap<>();
        if (transactionIds.isEmpty()) {
            return digests;
        }
        String[] digits = transactionIds.stream().map(String::valueOf).toArray(String[]::new);
        jdbc.query(
                connection -> {
                    PreparedStatement statement = connection.prepareStatement(DIGESTS_OF);
                    statement.setArray(1, connection.createArrayOf("text", digits));
                    return statement;
                },
                (ResultSet row) -> {
                    digests.put(
                            Long.parseLong(row.getString(1)),
                            new ProjectionDigest(row.getInt(2), row.getLong(3), row.getLong(4)));
                });
        return digests;
    }

    @Override
    public List<PaymentRow> paymentsInsertedBy(long transactionId, int limit) {
        return jdbc.query(
                PAYMENTS_INSERTED_BY,
                (row, i) -> new PaymentRow(
                        id(row, 1), id(row, 2), id(row, 3), row.getLong(4), PaymentStatus.valueOf(row.getString(5))),
                Long.toString(transactionId),
                limit);
    }

    @Override
    public List<PaymentRow> settledPaymentsOf(Id128 account, int limit) {
        return jdbc.query(
                SETTLED_PAYMENTS_OF,
                (row, i) -> new PaymentRow(
                        id(row, 1), id(row, 2), id(row, 3), row.getLong(4), PaymentStatus.valueOf(row.getString(5))),
                account.toUuid(),
                limit);
    }

    private static Id128 id(ResultSet row, int column) throws SQLException {
        return Id128.fromUuid(row.getObject(column, UUID.class));
    }

    private static Instant instant(ResultSet row, int column) throws SQLException {
        return row.getObject(column, OffsetDateTime.class).toInstant();
    }
}
