package io.pagora.payments.api.adapter.jdbc;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.med.ReportStore;
import io.pagora.payments.api.domain.med.InfractionReason;
import io.pagora.payments.api.domain.med.InfractionReport;
import io.pagora.payments.api.domain.med.ReportStatus;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.med.FundsTrace;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/** Infraction reports in {@code payment_api.infraction_reports}, their traces in {@code infraction_trace}. */
public final class JdbcReportStore implements ReportStore {

    private static final String COLUMNS = "report_id, payment_id, payer_bank, payee_bank, amount_centavos, reason,"
            + " details, status, filed_at, analyse_by, hold_until, decided_at, decision_reason, cut_timestamp,"
            + " truncated, request_key";

    private static final String INSERT = "INSERT INTO payment_api.infraction_reports (" + COLUMNS + ")"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, 'FILING', ?, ?, ?, NULL, NULL, ?, NULL, ?) ON CONFLICT (payment_id) DO NOTHING";

    private static final String ONE = "SELECT " + COLUMNS + " FROM payment_api.infraction_reports WHERE report_id = ?";

    private static final String TRACE = "SELECT position, hop, account_id, traced_centavos, held_centavos, parent,"
            + " via_payment_id, arrived_at FROM payment_api.infraction_trace WHERE report_id = ? ORDER BY position";

    private final JdbcTemplate jdbc;

    public JdbcReportStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Opened open(InfractionReport draft) {
        try {
            int inserted = jdbc.update(
                    INSERT,
                    uuid(draft.id().value()),
                    uuid(draft.payment().value()),
                    draft.payerBank().ispb(),
                    draft.payeeBank().ispb(),
                    draft.amountCentavos(),
                    draft.reason().name(),
                    draft.details(),
                    Timestamp.from(draft.filedAt()),
                    Timestamp.from(draft.analyseBy()),
                    Timestamp.from(draft.holdUntil()),
                    draft.cutTimestamp(),
                    draft.requestKey());
            return new Opened.Stored(find(draft.id()).orElseThrow(), inserted == 1);
        } catch (DuplicateKeyException keyTaken) {
            return new Opened.KeyTaken();
        }
    }

    @Override
    public void traced(InfractionReport report) {
        FundsTrace trace = report.trace();
        UUID id = uuid(report.id().value());
        jdbc.execute((ConnectionCallback<Void>) connection -> Transactions.run(connection, tx -> {
            try (PreparedStatement insert = tx.prepareStatement(
                    "INSERT INTO payment_api.infraction_trace (report_id, position, hop, account_id,"
                            + " traced_centavos, held_centavos, parent, via_payment_id, arrived_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
                for (FundsTrace.Node node : trace.nodes()) {
                    insert.setObject(1, id);
                    insert.setInt(2, node.position());
                    insert.setInt(3, node.hop());
                    insert.setObject(4, uuid(node.account()));
                    insert.setLong(5, node.tracedCentavos());
                    insert.setLong(6, node.heldCentavos());
                    insert.setInt(7, node.parent());
                    insert.setObject(8, uuid(node.via().value()));
                    insert.setLong(9, node.arrivedAt());
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            try (PreparedStatement open =
                    tx.prepareStatement("UPDATE payment_api.infraction_reports SET status = 'OPEN', truncated = ?"
                            + " WHERE report_id = ? AND status = 'FILING'")) {
                open.setBoolean(1, trace.truncated());
                open.setObject(2, id);
                open.executeUpdate();
            }
            return null;
        }));
    }

    @Override
    public Optional<InfractionReport> find(PaymentId report) {
        return jdbc.query(ONE, (row, n) -> report(row), uuid(report.value())).stream()
                .findFirst();
    }

    @Override
    public boolean decide(PaymentId report, ReportStatus from, ReportStatus to, Instant at, String why) {
        return jdbc.update(
                        "UPDATE payment_api.infraction_reports SET status = ?, decided_at = ?, decision_reason = ?"
                                + " WHERE report_id = ? AND status = ?",
                        to.name(),
                        Timestamp.from(at),
                        why,
                        uuid(report.value()),
                        from.name())
                == 1;
    }

    @Override
    public List<InfractionReport> due(Instant now, int limit) {
        return jdbc.query(
                "SELECT " + COLUMNS + " FROM payment_api.infraction_reports WHERE status = 'OPEN' AND analyse_by < ?"
                        + " ORDER BY analyse_by LIMIT ?",
                (row, n) -> report(row),
                Timestamp.from(now),
                limit);
    }

    private InfractionReport report(ResultSet row) throws SQLException {
        PaymentId id = new PaymentId(Id128.fromUuid(row.getObject("report_id", UUID.class)));
        PaymentId payment = new PaymentId(Id128.fromUuid(row.getObject("payment_id", UUID.class)));
        ReportStatus status = ReportStatus.valueOf(row.getString("status"));
        long amount = row.getLong("amount_centavos");
        long cut = row.getLong("cut_timestamp");
        FundsTrace trace = status == ReportStatus.FILING
                ? null
                : new FundsTrace(payment, amount, cut, nodes(id), row.getBoolean("truncated"));
        Timestamp decidedAt = row.getTimestamp("decided_at");
        return new InfractionReport(
                id,
                payment,
                new BankId(row.getInt("payer_bank")),
                new BankId(row.getInt("payee_bank")),
                amount,
                InfractionReason.valueOf(row.getString("reason")),
                row.getString("details"),
                status,
                row.getTimestamp("filed_at").toInstant(),
                row.getTimestamp("analyse_by").toInstant(),
                row.getTimestamp("hold_until").toInstant(),
                decidedAt == null ? null : decidedAt.toInstant(),
                row.getString("decision_reason"),
                cut,
                row.getString("request_key"),
                trace);
    }

    private List<FundsTrace.Node> nodes(PaymentId report) {
        return new ArrayList<>(jdbc.query(
                TRACE,
                (row, n) -> new FundsTrace.Node(
                        row.getInt("position"),
                        row.getInt("hop"),
                        Id128.fromUuid(row.getObject("account_id", UUID.class)),
                        row.getLong("traced_centavos"),
                        row.getLong("held_centavos"),
                        row.getInt("parent"),
                        new PaymentId(Id128.fromUuid(row.getObject("via_payment_id", UUID.class))),
                        row.getLong("arrived_at")),
                uuid(report.value())));
    }

    private static UUID uuid(Id128 id) {
        return id.toUuid();
    }
}
