package io.pagora.reporting.adapter.jdbc;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.reporting.application.ReadModelQueries;
import io.pagora.reporting.application.StatementCursor;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.settlement.domain.BankId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/** The queries, each one indexed statement (see V1__reporting_schema.sql for the indexes). */
public final class JdbcReadModelQueries implements ReadModelQueries {

    private static final String PAYMENT = """
            SELECT payment_id, status, payer_account_id, payee_account_id, payer_bank_ispb, payee_bank_ispb,
                   amount_centavos, currency, description, end_to_end_id, accepted_at, requested_at, reason, detail,
                   final_at
            FROM reporting.payments WHERE payment_id = ?
            """;

    // Newest first. The row comparison on the primary key (account_id, final_at, payment_id, direction)
    // is one backward index range scan, however deep the page.
    private static final String STATEMENT_FIRST = """
            SELECT final_at, payment_id, direction, counterparty_account_id, amount_centavos
            FROM reporting.statement_entries
            WHERE account_id = ?
            ORDER BY final_at DESC, payment_id DESC, direction DESC
            LIMIT ?
            """;

    private static final String STATEMENT_AFTER = """
            SELECT final_at, payment_id, direction, counterparty_account_id, amount_centavos
            FROM reporting.statement_entries
            WHERE account_id = ? AND (final_at, payment_id, direction) < (?::timestamptz, ?::uuid, ?::text)
            ORDER BY final_at DESC, payment_id DESC, direction DESC
            LIMIT ?
            """;

    // Interbank: the other side's bank differs (or is outside the id scheme). On-us: both at this bank.
    private static final String SENT = """
            SELECT coalesce(sum(amount_centavos) FILTER (WHERE payee_bank_ispb IS DISTINCT FROM ?), 0) AS sent_centavos,
                   count(*) FILTER (WHERE payee_bank_ispb IS DISTINCT FROM ?) AS sent_count,
                   coalesce(sum(amount_centavos) FILTER (WHERE payee_bank_ispb = ?), 0) AS on_us_centavos,
                   count(*) FILTER (WHERE payee_bank_ispb = ?) AS on_us_count
            FROM reporting.payments
            WHERE status = 'SETTLED' AND payer_bank_ispb = ? AND final_at >= ? AND final_at < ?
            """;

    private static final String RECEIVED = """
            SELECT coalesce(sum(amount_centavos), 0) AS received_centavos, count(*) AS received_count
            FROM reporting.payments
            WHERE status = 'SETTLED' AND payee_bank_ispb = ? AND payer_bank_ispb IS DISTINCT FROM ?
              AND final_at >= ? AND final_at < ?
            """;

    // A bank's payments, newest first, among the switch's newest RECENT_SCAN_ROWS_MAX (or of one status): a
    // backward scan of the primary key (or of payments_by_status) that stops there, whatever the bank. No index
    // per bank on purpose: every projected insert and status update would pay for two more. Without the bound, a
    // bank with few payments would make the scan read the whole table (any bank could tie up the pool with a few
    // calls); with it, one call reads at most RECENT_SCAN_ROWS_MAX index entries and rows.
    static final int RECENT_SCAN_ROWS_MAX = 100_000;

    private static final String RECENT_OF_BANK = """
            SELECT payment_id, status, payer_account_id, payee_account_id, amount_centavos, accepted_at, final_at
            FROM (SELECT * FROM reporting.payments ORDER BY payment_id DESC LIMIT %d) recent
            WHERE payer_bank_ispb = ? OR payee_bank_ispb = ?
            ORDER BY payment_id DESC LIMIT ?
            """.formatted(RECENT_SCAN_ROWS_MAX);

    private static final String RECENT_OF_BANK_WITH_STATUS = """
            SELECT payment_id, status, payer_account_id, payee_account_id, amount_centavos, accepted_at, final_at
            FROM (SELECT * FROM reporting.payments WHERE status = ? ORDER BY payment_id DESC LIMIT %d) recent
            WHERE payer_bank_ispb = ? OR payee_bank_ispb = ?
            ORDER BY payment_id DESC LIMIT ?
            """.formatted(RECENT_SCAN_ROWS_MAX);

    private static final String STATS = """
            SELECT accepted_count, settled_count, rejected_count, expired_count, max_final_at, last_projected_at
            FROM reporting.payment_stats WHERE id = 1
            """;

    private final JdbcTemplate jdbc;

    public JdbcReadModelQueries(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Optional<PaymentView> payment(Id128 paymentId) {
        List<PaymentView> rows = jdbc.query(PAYMENT, (row, n) -> new PaymentView(
                id(row, "payment_id"), PaymentStatus.valueOf(row.getString("status")),
                id(row, "payer_account_id"), id(row, "payee_account_id"),
                (Integer) row.getObject("payer_bank_ispb"), (Integer) row.getObject("payee_bank_ispb"),
                row.getLong("amount_centavos"), row.getString("currency"), row.getString("description"),
                row.getString("end_to_end_id"), instant(row, "accepted_at"), instant(row, "requested_at"),
                row.getString("reason"), row.getString("detail"), instant(row, "final_at")),
                paymentId.toUuid());
        return rows.stream().findFirst();
    }

    @Override
    public StatementPage statement(Id128 accountId, StatementCursor after, int limit) {
        Check.that(limit >= 1 && limit <= StatementCursor.LIMIT_MAX, "statement limit in range: %d", limit);
        // One more than asked tells whether a next page exists without a count.
        List<StatementEntry> rows = after == null
                ? jdbc.query(STATEMENT_FIRST, JdbcReadModelQueries::entry, accountId.toUuid(), limit + 1)
                : jdbc.query(STATEMENT_AFTER, JdbcReadModelQueries::entry, accountId.toUuid(),
                        OffsetDateTime.ofInstant(after.settledAt(), ZoneOffset.UTC), after.paymentId().toUuid(),
                        after.direction().name(), limit + 1);
        if (rows.size() <= limit) {
            return new StatementPage(rows, null);
        }
        List<StatementEntry> page = new ArrayList<>(rows.subList(0, limit));
        return new StatementPage(page, page.getLast().cursor());
    }

    @Override
    public BankPosition position(int ispb, LocalDate utcDate) {
        OffsetDateTime from = utcDate.atStartOfDay().atOffset(ZoneOffset.UTC);
        OffsetDateTime to = from.plusDays(1);
        long[] sent = jdbc.queryForObject(SENT, (row, n) -> new long[] {
                row.getLong("sent_centavos"), row.getLong("sent_count"),
                row.getLong("on_us_centavos"), row.getLong("on_us_count")}, ispb, ispb, ispb, ispb, ispb, from, to);
        long[] received = jdbc.queryForObject(RECEIVED, (row, n) -> new long[] {
                row.getLong("received_centavos"), row.getLong("received_count")}, ispb, ispb, from, to);
        return new BankPosition(ispb, utcDate, sent[0], sent[1], received[0], received[1], sent[2], sent[3]);
    }

    @Override
    public List<PaymentSummary> recentPayments(BankId bank, PaymentStatus status, int limit) {
        Check.that(limit >= 1, "listing limit is positive: %d", limit);
        int ispb = bank.ispb();
        return status == null
                ? jdbc.query(RECENT_OF_BANK, JdbcReadModelQueries::summary, ispb, ispb, limit)
                : jdbc.query(RECENT_OF_BANK_WITH_STATUS, JdbcReadModelQueries::summary, status.name(), ispb, ispb, limit);
    }

    @Override
    public Stats stats() {
        return jdbc.queryForObject(STATS, (row, n) -> {
            Map<PaymentStatus, Long> counts = new EnumMap<>(PaymentStatus.class);
            counts.put(PaymentStatus.ACCEPTED, row.getLong("accepted_count"));
            counts.put(PaymentStatus.SETTLED, row.getLong("settled_count"));
            counts.put(PaymentStatus.REJECTED, row.getLong("rejected_count"));
            counts.put(PaymentStatus.EXPIRED, row.getLong("expired_count"));
            return new Stats(counts, instant(row, "max_final_at"), instant(row, "last_projected_at"));
        });
    }

    private static StatementEntry entry(ResultSet row, int n) throws SQLException {
        return new StatementEntry(instant(row, "final_at"), id(row, "payment_id"),
                Direction.valueOf(row.getString("direction")), id(row, "counterparty_account_id"),
                row.getLong("amount_centavos"));
    }

    private static PaymentSummary summary(ResultSet row, int n) throws SQLException {
        return new PaymentSummary(id(row, "payment_id"), PaymentStatus.valueOf(row.getString("status")),
                id(row, "payer_account_id"), id(row, "payee_account_id"), row.getLong("amount_centavos"),
                instant(row, "accepted_at"), instant(row, "final_at"));
    }

    private static Id128 id(ResultSet row, String column) throws SQLException {
        return Id128.fromUuid(row.getObject(column, UUID.class));
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
