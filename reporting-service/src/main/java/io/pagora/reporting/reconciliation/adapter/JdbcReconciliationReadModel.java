package io.pagora.reporting.reconciliation.adapter;

import io.pagora.kernel.Id128;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel;
import io.pagora.reporting.reconciliation.domain.PaymentFlows;
import io.pagora.settlement.domain.BankId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The reconciliation's queries on schema {@code reporting}, each one index range scan (see
 * V1__reporting_schema.sql): the payments' primary key, the statement's primary key and the partial
 * indexes of settled payments by bank. Every statement runs under the service's statement timeout.
 */
public final class JdbcReconciliationReadModel implements ReconciliationReadModel {

    private static final String PAYMENTS_BETWEEN = """
            SELECT payment_id, payer_account_id, payee_account_id, amount_centavos, status
            FROM reporting.payments
            WHERE payment_id > ? AND payment_id < ?
            ORDER BY payment_id
            LIMIT ?
            """;

    private static final String CUSTOMERS_AFTER = """
            SELECT DISTINCT account_id FROM reporting.statement_entries
            WHERE account_id > ?
            ORDER BY account_id
            LIMIT ?
            """;

    private static final String CUSTOMER_FLOWS = """
            SELECT account_id,
                   coalesce(sum(amount_centavos) FILTER (WHERE direction = 'DEBIT'), 0),
                   coalesce(sum(amount_centavos) FILTER (WHERE direction = 'CREDIT'), 0)
            FROM reporting.statement_entries
            WHERE account_id = ANY (?)
            GROUP BY account_id
            """;

    // Interbank only: an on-us payment (payer bank = payee bank) never touches a reserve or a transit.
    private static final String BANK_FLOWS = """
            SELECT bank, sum(sent), sum(received) FROM (
                SELECT payer_bank_ispb AS bank, amount_centavos AS sent, 0::bigint AS received
                FROM reporting.payments
                WHERE status = 'SETTLED' AND payer_bank_ispb IS NOT NULL AND payee_bank_ispb <> payer_bank_ispb
                UNION ALL
                SELECT payee_bank_ispb, 0::bigint, amount_centavos
                FROM reporting.payments
                WHERE status = 'SETTLED' AND payee_bank_ispb IS NOT NULL AND payer_bank_ispb <> payee_bank_ispb
            ) flows
            GROUP BY bank
            """;

    private final JdbcTemplate jdbc;

    public JdbcReconciliationReadModel(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<PaymentRow> paymentsBetween(Id128 after, Id128 before, int limit) {
        return jdbc.query(PAYMENTS_BETWEEN, (row, i) -> new PaymentRow(id(row, 1), id(row, 2), id(row, 3), row.getLong(4),
                PaymentStatus.valueOf(row.getString(5))), after.toUuid(), before.toUuid(), limit);
    }

    @Override
    public List<Id128> customersAfter(Id128 after, int limit) {
        return jdbc.query(CUSTOMERS_AFTER, (row, i) -> id(row, 1), after.toUuid(), limit);
    }

    @Override
    public Map<Id128, PaymentFlows> customerFlows(List<Id128> accounts) {
        Map<Id128, PaymentFlows> flows = new LinkedHashMap<>();
        if (accounts.isEmpty()) {
            return flows;
        }
        UUID[] ids = accounts.stream().map(Id128::toUuid).toArray(UUID[]::new);
        jdbc.query(connection -> {
            var statement = connection.prepareStatement(CUSTOMER_FLOWS);
            statement.setArray(1, connection.createArrayOf("uuid", ids));
            return statement;
        }, row -> {
            flows.put(id(row, 1), new PaymentFlows(row.getLong(2), row.getLong(3)));
        });
        return flows;
    }

    @Override
    public Map<BankId, PaymentFlows> bankFlows() {
        Map<BankId, PaymentFlows> flows = new LinkedHashMap<>();
        jdbc.query(BANK_FLOWS, row -> {
            flows.put(new BankId(row.getInt(1)), new PaymentFlows(row.getLong(2), row.getLong(3)));
        });
        return flows;
    }

    private static Id128 id(ResultSet row, int column) throws SQLException {
        return Id128.fromUuid(row.getObject(column, UUID.class));
    }
}
