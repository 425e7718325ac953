package io.pagora.payments.api.adapter.jdbc;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.med.ReportStore;
import io.pagora.payments.api.domain.med.InfractionReason;
import io.pagora.payments.api.domain.med.InfractionReport;
import io.pagora.payments.api.domain.med.ReportRefund;
import io.pagora.payments.api.domain.med.ReportStatus;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.med.FundsTrace;
import io.pagora.settlement.domain.med.RefundOutcome;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/** Infraction reports in {@code payment_api.infraction_reports}, their traces in {@code infraction_trace}. */
public final class JdbcReportStore implements ReportStore {

    private static final String COLUMNS = "report_id, payment_id, payer_bank, payee_bank, amount_centavos, reason,"
            + " details, status, filed_at, analyse_by, hold_until, decided_at, decision_reason, cut_timestamp,"
            + " truncated, request_key, refund_centavos, refund_requested_at";

    private static final String INSERT = "INSERT INTO payment_api.infraction_reports (" + COLUMNS + ")"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, 'FILING', ?, ?, ?, NULL, NULL, ?, NULL, ?, NULL, NULL) ON CONFLICT DO NOTHING";

    private static final String ONE = "SELECT " + COLUMNS + " FROM payment_api.infraction_reports WHERE report_id = ?";

    private static final String TRACE = "SELECT position, hop, account_id, traced_centavos, held_centavos, parent,"
            + " via_payment_id, arrived_at, refund_outcome FROM payment_api.infraction_trace WHERE report_id = ? ORDER BY position";

    private final JdbcTemplate jdbc;

    public JdbcReportStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Inserts unless any unique index holds a row already: its payment's report (the same id, the same payment) is
     * answered; a row of another payment under the same key is {@code KeyTaken}.
     */
    @Override
    public Opened open(InfractionReport draft) {
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
        return find(draft.id())
                .<Opened>map(stored -> new Opened.Stored(stored, inserted == 1))
                .orElseGet(Opened.KeyTaken::new);
    }

    @Override
    public boolean planned(InfractionReport report) {
        FundsTrace trace = report.trace();
        UUID id = uuid(report.id().value());
        return jdbc.execute((ConnectionCallback<Boolean>) connection -> Transactions.run(connection, tx -> {
            try (PreparedStatement claim =
                    tx.prepareStatement("UPDATE payment_api.infraction_reports SET status = 'HOLDING', truncated = ?"
                            + " WHERE report_id = ? AND status = 'FILING'")) {
                claim.setBoolean(1, trace.truncated());
                claim.setObject(2, id);
                if (claim.executeUpdate() != 1) {
                    return false;
                }
            }
            try (PreparedStatement insert = tx.prepareStatement(
                    "INSERT INTO payment_api.infraction_trace (report_id, position, hop, account_id,"
                            + " traced_centavos, held_centavos, parent, via_payment_id, arrived_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
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
            return true;
        }));
    }

    @Override
    public void opened(InfractionReport report) {
        UUID id = uuid(report.id().value());
        jdbc.execute((ConnectionCallback<Void>) connection -> Transactions.run(connection, tx -> {
            try (PreparedStatement open =
                    tx.prepareStatement("UPDATE payment_api.infraction_reports SET status = 'OPEN'"
                            + " WHERE report_id = ? AND status = 'HOLDING'")) {
                open.setObject(1, id);
                if (open.executeUpdate() != 1) {
                    return null;
                }
            }
            try (PreparedStatement held = tx.prepareStatement("UPDATE payment_api.infraction_trace"
                    + " SET held_centavos = ? WHERE report_id = ? AND position = ? AND held_centavos <> ?")) {
                for (FundsTrace.Node node : report.trace().nodes()) {
                    held.setLong(1, node.heldCentavos());
                    held.setObject(2, id);
                    held.setInt(3, node.position());
                    held.setLong(4, node.heldCentavos());
                    held.addBatch();
                }
                held.executeBatch();
            }
            return null;
        }));
    }

    @Override
    public List<InfractionReport> unfinished(Instant before, int limit) {
        return jdbc.query(
                "SELECT " + COLUMNS + " FROM payment_api.infraction_reports WHERE status IN ('FILING', 'HOLDING')"
                        + " AND filed_at < ? ORDER BY filed_at LIMIT ?",
                (row, n) -> report(row),
                Timestamp.from(before),
                limit);
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
    public boolean refunding(PaymentId report, ReportRefund refund) {
        return jdbc.update(
                        "UPDATE payment_api.infraction_reports SET status = 'REFUNDING', refund_centavos = ?,"
                                + " refund_requested_at = ? WHERE report_id = ? AND status = 'ACCEPTED'",
                        refund.centavos(),
                        Timestamp.from(refund.requestedAt()),
                        uuid(report.value()))
                == 1;
    }

    @Override
    public void refunded(PaymentId report, Map<Integer, RefundOutcome> outcomes) {
        UUID id = uuid(report.value());
        jdbc.execute((ConnectionCallback<Void>) connection -> Transactions.run(connection, tx -> {
            try (PreparedStatement done = tx.prepareStatement("UPDATE payment_api.infraction_reports"
                    + " SET status = 'REFUNDED' WHERE report_id = ? AND status = 'REFUNDING'")) {
                done.setObject(1, id);
                if (done.executeUpdate() != 1) {
                    return null;
                }
            }
            try (PreparedStatement outcome = tx.prepareStatement("UPDATE payment_api.infraction_trace"
                    + " SET refund_outcome = ? WHERE report_id = ? AND position = ?")) {
                for (Map.Entry<Integer, RefundOutcome> each : outcomes.entrySet()) {
                    outcome.setString(1, each.getValue().name());
                    outcome.setObject(2, id);
                    outcome.setInt(3, each.getKey());
                    outcome.addBatch();
                }
                outcome.executeBatch();
            }
            return null;
        }));
    }

    @Override
    public List<InfractionReport> unrefunded(Instant before, int limit) {
        return jdbc.query(
                "SELECT " + COLUMNS + " FROM payment_api.infraction_reports WHERE status = 'REFUNDING'"
                        + " AND refund_requested_at < ? ORDER BY refund_requested_at LIMIT ?",
                (row, n) -> report(row),
                Timestamp.from(before),
                limit);
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
        FundsTrace trace = null;
        Timestamp decidedAt = row.getTimestamp("decided_at");
        Timestamp refundedAt = row.getTimestamp("refund_requested_at");
        Map<Integer, RefundOutcome> outcomes = new HashMap<>();
        if (status != ReportStatus.FILING) {
            trace = new FundsTrace(payment, amount, cut, nodes(id, outcomes), row.getBoolean("truncated"));
        }
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
                trace,
                refundedAt == null
                        ? null
                        : new ReportRefund(row.getLong("refund_centavos"), refundedAt.toInstant(), outcomes));
    }

    private List<FundsTrace.Node> nodes(PaymentId report, Map<Integer, RefundOutcome> outcomes) {
        return new ArrayList<>(jdbc.query(
                TRACE,
                (row, n) -> {
                    String outcome = row.getString("refund_outcome");
                    if (outcome != null) {
                        outcomes.put(row.getInt("position"), RefundOutcome.valueOf(outcome));
                    }
                    return new FundsTrace.Node(
                            row.getInt("position"),
                            row.getInt("hop"),
                            Id128.fromUuid(row.getObject("account_id", UUID.class)),
                            row.getLong("traced_centavos"),
                            row.getLong("held_centavos"),
                            row.getInt("parent"),
                            new PaymentId(Id128.fromUuid(row.getObject("via_payment_id", UUID.class))),
                            row.getLong("arrived_at"));
                },
                uuid(report.value())));
    }

    private static UUID uuid(Id128 id) {
        return id.toUuid();
    }
}
