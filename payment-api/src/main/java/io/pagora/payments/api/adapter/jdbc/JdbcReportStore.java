package io.pagora.payments.api.adapter.jdbc;

import io.pagora.kernel.Check;
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
import java.sql.Connection;
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
import org.springframework.jdbc.core.JdbcTemplate;

/** Infraction reports in {@code payment_api.infraction_reports}, their traces in {@code infraction_trace}. */
public final class JdbcReportStore implements ReportStore {

    private static final String COLUMNS = "report_id, payment_id, payer_bank, payee_bank, amount_centavos, reason,"
            + " details, status, filed_at, analyse_by, hold_until, decided_at, decision_reason, cut_timestamp,"
            + " truncated, request_key, refund_centavos, refund_requested_at";

    private static final String INSERT = "INSERT INTO payment_api.infraction_reports (" + COLUMNS + ")"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, 'FILING', ?, ?, ?, NULL, NULL, ?, NULL, ?, NULL, NULL) ON CONFLICT DO NOTHING"
            + " RETURNING report_id";

    /**
     * Reports chosen by {@code %s} (a filter, an order and a limit on the reports) with their trace nodes, in one
     * statement: the nodes come as the rows of a left join, a report's in position order.
     */
    private static final String WITH_TRACE = "SELECT r.*, t.position, t.hop, t.account_id, t.traced_centavos,"
            + " t.held_centavos, t.parent, t.via_payment_id, t.arrived_at, t.refund_outcome FROM (SELECT " + COLUMNS
            + " FROM payment_api.infraction_reports WHERE %s ORDER BY %s LIMIT ?) r"
            + " LEFT JOIN payment_api.infraction_trace t ON t.report_id = r.report_id ORDER BY r.%s, r.report_id,"
            + " t.position";

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
        Check.that(
                draft.status() == ReportStatus.FILING && draft.trace() == null && draft.refund() == null,
                "a report is opened FILING, without a trace: %s",
                draft);
        Check.that(
                draft.filedAt().getNano() % 1_000 == 0
                        && draft.analyseBy().getNano() % 1_000 == 0
                        && draft.holdUntil().getNano() % 1_000 == 0,
                "a report's instants in microseconds, as stored: %s",
                draft);
        List<UUID> inserted = jdbc.queryForList(
                INSERT,
                UUID.class,
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
        if (!inserted.isEmpty()) {
            return new Opened.Stored(draft, true); // the row as stored: the draft, its instants in microseconds
        }
        return find(draft.id())
                .<Opened>map(stored -> new Opened.Stored(stored, false))
                .orElseGet(Opened.KeyTaken::new);
    }

    /**
     * One statement: the claim (FILING to HOLDING) and the nodes' insert run together or not at all, and a report
     * another filing claimed first inserts nothing. Every trace has its first node, so nodes inserted means claimed.
     */
    @Override
    public boolean planned(InfractionReport report) {
        List<FundsTrace.Node> nodes = report.trace().nodes();
        Check.that(!nodes.isEmpty(), "a trace starts at the first receiving account: %s", report.id());
        int inserted = jdbc.update(
                "WITH claim AS (UPDATE payment_api.infraction_reports SET status = 'HOLDING', truncated = ?"
                        + " WHERE report_id = ? AND status = 'FILING' RETURNING report_id)"
                        + " INSERT INTO payment_api.infraction_trace (report_id, position, hop, account_id,"
                        + " traced_centavos, held_centavos, parent, via_payment_id, arrived_at)"
                        + " SELECT claim.report_id, n.position, n.hop, n.account_id, n.traced, n.held, n.parent, n.via,"
                        + " n.arrived FROM claim, unnest(?::int2[], ?::int2[], ?::uuid[], ?::int8[], ?::int8[],"
                        + " ?::int2[], ?::uuid[], ?::int8[]) AS n(position, hop, account_id, traced, held, parent, via,"
                        + " arrived)",
                statement -> {
                    statement.setBoolean(1, report.trace().truncated());
                    statement.setObject(2, uuid(report.id().value()));
                    Connection connection = statement.getConnection();
                    statement.setArray(3, ints(connection, nodes, FundsTrace.Node::position));
                    statement.setArray(4, ints(connection, nodes, FundsTrace.Node::hop));
                    statement.setArray(5, uuids(connection, nodes, FundsTrace.Node::account));
                    statement.setArray(6, longs(connection, nodes, FundsTrace.Node::tracedCentavos));
                    statement.setArray(7, longs(connection, nodes, FundsTrace.Node::heldCentavos));
                    statement.setArray(8, ints(connection, nodes, FundsTrace.Node::parent));
                    statement.setArray(
                            9, uuids(connection, nodes, node -> node.via().value()));
                    statement.setArray(10, longs(connection, nodes, FundsTrace.Node::arrivedAt));
                });
        Check.that(inserted == 0 || inserted == nodes.size(), "%d of %d nodes stored", inserted, nodes.size());
        return inserted > 0;
    }

    /** One statement: the report OPEN (if it was HOLDING) and each node's hold as taken. */
    @Override
    public boolean opened(InfractionReport report) {
        List<FundsTrace.Node> nodes = report.trace().nodes();
        Integer opened = jdbc.query(
                "WITH opened AS (UPDATE payment_api.infraction_reports SET status = 'OPEN'"
                        + " WHERE report_id = ? AND status = 'HOLDING' RETURNING report_id),"
                        + " held AS (UPDATE payment_api.infraction_trace t SET held_centavos = n.held"
                        + " FROM opened, unnest(?::int2[], ?::int8[]) AS n(position, held)"
                        + " WHERE t.report_id = opened.report_id AND t.position = n.position"
                        + " AND t.held_centavos <> n.held RETURNING 1)"
                        + " SELECT count(*)::int FROM opened",
                statement -> {
                    statement.setObject(1, uuid(report.id().value()));
                    Connection connection = statement.getConnection();
                    statement.setArray(2, ints(connection, nodes, FundsTrace.Node::position));
                    statement.setArray(3, longs(connection, nodes, FundsTrace.Node::heldCentavos));
                },
                rows -> rows.next() ? rows.getInt(1) : 0);
        return opened != null && opened == 1;
    }

    @Override
    public List<InfractionReport> unfinished(Instant before, int limit) {
        return reports("status IN ('FILING', 'HOLDING') AND filed_at < ?", "filed_at", Timestamp.from(before), limit);
    }

    @Override
    public Optional<InfractionReport> find(PaymentId report) {
        return reports("report_id = ?", "report_id", uuid(report.value()), 1).stream()
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

    /** One statement: the report REFUNDED (if it was REFUNDING) and each node's refund outcome. */
    @Override
    public boolean refunded(PaymentId report, Map<Integer, RefundOutcome> outcomes) {
        List<Map.Entry<Integer, RefundOutcome>> each = List.copyOf(outcomes.entrySet());
        Integer refunded = jdbc.query(
                "WITH done AS (UPDATE payment_api.infraction_reports SET status = 'REFUNDED'"
                        + " WHERE report_id = ? AND status = 'REFUNDING' RETURNING report_id),"
                        + " told AS (UPDATE payment_api.infraction_trace t SET refund_outcome = n.outcome"
                        + " FROM done, unnest(?::int2[], ?::text[]) AS n(position, outcome)"
                        + " WHERE t.report_id = done.report_id AND t.position = n.position RETURNING 1)"
                        + " SELECT count(*)::int FROM done",
                statement -> {
                    statement.setObject(1, uuid(report.value()));
                    Connection connection = statement.getConnection();
                    statement.setArray(
                            2,
                            connection.createArrayOf(
                                    "int2", each.stream().map(Map.Entry::getKey).toArray()));
                    statement.setArray(
                            3,
                            connection.createArrayOf(
                                    "text",
                                    each.stream().map(e -> e.getValue().name()).toArray()));
                },
                rows -> rows.next() ? rows.getInt(1) : 0);
        return refunded != null && refunded == 1;
    }

    @Override
    public List<InfractionReport> unrefunded(Instant before, int limit) {
        return reports(
                "status = 'REFUNDING' AND refund_requested_at < ?",
                "refund_requested_at",
                Timestamp.from(before),
                limit);
    }

    @Override
    public List<InfractionReport> due(Instant now, int limit) {
        return reports("status = 'OPEN' AND analyse_by < ?", "analyse_by", Timestamp.from(now), limit);
    }

    /** The reports {@code filter} chooses, first {@code limit} by {@code order}, each with its trace: one query. */
    private List<InfractionReport> reports(String filter, String order, Object argument, int limit) {
        return jdbc.query(
                String.format(WITH_TRACE, filter, order, order),
                rows -> {
                    List<InfractionReport> reports = new ArrayList<>();
                    Read read = null;
                    while (rows.next()) {
                        UUID id = rows.getObject("report_id", UUID.class);
                        if (read == null || !read.id.equals(id)) {
                            if (read != null) {
                                reports.add(read.report());
                            }
                            read = new Read(id, rows);
                        }
                        if (rows.getObject("position") != null) {
                            read.node(rows);
                        }
                    }
                    if (read != null) {
                        reports.add(read.report());
                    }
                    Check.that(reports.size() <= limit, "%d reports for a limit of %d", reports.size(), limit);
                    return reports;
                },
                argument,
                limit);
    }

    /** One report as its rows are read: its columns from the first, a trace node from each. */
    private static final class Read {
        final UUID id;
        final PaymentId payment;
        final BankId payerBank;
        final BankId payeeBank;
        final long amountCentavos;
        final InfractionReason reason;
        final String details;
        final ReportStatus status;
        final Instant filedAt;
        final Instant analyseBy;
        final Instant holdUntil;
        final Instant decidedAt;
        final String decisionReason;
        final long cutTimestamp;
        final boolean truncated;
        final String requestKey;
        final long refundCentavos;
        final Instant refundRequestedAt;
        final List<FundsTrace.Node> nodes = new ArrayList<>();
        final Map<Integer, RefundOutcome> outcomes = new HashMap<>();

        Read(UUID id, ResultSet row) throws SQLException {
            this.id = id;
            this.payment = new PaymentId(Id128.fromUuid(row.getObject("payment_id", UUID.class)));
            this.payerBank = new BankId(row.getInt("payer_bank"));
            this.payeeBank = new BankId(row.getInt("payee_bank"));
            this.amountCentavos = row.getLong("amount_centavos");
            this.reason = InfractionReason.valueOf(row.getString("reason"));
            this.details = row.getString("details");
            this.status = ReportStatus.valueOf(row.getString("status"));
            this.filedAt = row.getTimestamp("filed_at").toInstant();
            this.analyseBy = row.getTimestamp("analyse_by").toInstant();
            this.holdUntil = row.getTimestamp("hold_until").toInstant();
            this.decidedAt = instant(row.getTimestamp("decided_at"));
            this.decisionReason = row.getString("decision_reason");
            this.cutTimestamp = row.getLong("cut_timestamp");
            this.truncated = row.getBoolean("truncated");
            this.requestKey = row.getString("request_key");
            this.refundCentavos = row.getLong("refund_centavos");
            this.refundRequestedAt = instant(row.getTimestamp("refund_requested_at"));
        }

        void node(ResultSet row) throws SQLException {
            int position = row.getInt("position");
            Check.that(position == nodes.size(), "report %s: node %d after %d", id, position, nodes.size());
            String outcome = row.getString("refund_outcome");
            if (outcome != null) {
                outcomes.put(position, RefundOutcome.valueOf(outcome));
            }
            nodes.add(new FundsTrace.Node(
                    position,
                    row.getInt("hop"),
                    Id128.fromUuid(row.getObject("account_id", UUID.class)),
                    row.getLong("traced_centavos"),
                    row.getLong("held_centavos"),
                    row.getInt("parent"),
                    new PaymentId(Id128.fromUuid(row.getObject("via_payment_id", UUID.class))),
                    row.getLong("arrived_at")));
        }

        InfractionReport report() {
            Check.that(
                    (status == ReportStatus.FILING) == nodes.isEmpty(),
                    "report %s: %s with %d trace nodes",
                    id,
                    status,
                    nodes.size());
            return new InfractionReport(
                    new PaymentId(Id128.fromUuid(id)),
                    payment,
                    payerBank,
                    payeeBank,
                    amountCentavos,
                    reason,
                    details,
                    status,
                    filedAt,
                    analyseBy,
                    holdUntil,
                    decidedAt,
                    decisionReason,
                    cutTimestamp,
                    requestKey,
                    nodes.isEmpty() ? null : new FundsTrace(payment, amountCentavos, cutTimestamp, nodes, truncated),
                    refundRequestedAt == null ? null : new ReportRefund(refundCentavos, refundRequestedAt, outcomes));
        }

        private static Instant instant(Timestamp timestamp) {
            return timestamp == null ? null : timestamp.toInstant();
        }
    }

    private static UUID uuid(Id128 id) {
        return id.toUuid();
    }

    private static java.sql.Array uuids(
            Connection connection,
            List<FundsTrace.Node> nodes,
            java.util.function.Function<FundsTrace.Node, Id128> field)
            throws SQLException {
        return connection.createArrayOf(
                "uuid", nodes.stream().map(field).map(JdbcReportStore::uuid).toArray());
    }

    private static java.sql.Array ints(
            Connection connection, List<FundsTrace.Node> nodes, java.util.function.ToIntFunction<FundsTrace.Node> field)
            throws SQLException {
        return connection.createArrayOf(
                "int2", nodes.stream().mapToInt(field).boxed().toArray());
    }

    private static java.sql.Array longs(
            Connection connection,
            List<FundsTrace.Node> nodes,
            java.util.function.ToLongFunction<FundsTrace.Node> field)
            throws SQLException {
        return connection.createArrayOf(
                "int8", nodes.stream().mapToLong(field).boxed().toArray());
    }
}
