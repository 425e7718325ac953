package io.pagora.reporting.adapter.jdbc;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.reporting.application.ReadModelQueries;
import io.pagora.reporting.application.StatementCursor;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PixId;
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

    private static final String PAYMENT_COLUMNS = """
            SELECT payment_id, status, payer_account_id, payee_account_id, payer_bank_ispb, payee_bank_ispb,
                   amount_centavos, currency, description, end_to_end_id, accepted_at, requested_at, reason, detail,
                   final_at, return_of, return_reason
            """;

    // The index payments_returns_of (V6): a payment's few returns.
    private static final String RETURNS_LISTED = """
            SELECT payment_id, end_to_end_id, amount_centavos, return_reason, status, accepted_at, final_at
            FROM reporting.payments WHERE return_of = ?
            ORDER BY payment_id LIMIT %d
            """.formatted(Returns.LISTED_MAX);

    private static final String RETURNS_TOTALS = """
            SELECT count(*) AS count,
                   COALESCE(sum(amount_centavos) FILTER (WHERE status = 'SETTLED'), 0) AS settled,
                   COALESCE(sum(amount_centavos) FILTER (WHERE status = 'ACCEPTED'), 0) AS in_flight
            FROM reporting.payments WHERE return_of = ?
            """;

    private static final String PAYMENT = PAYMENT_COLUMNS + """
            FROM reporting.payments WHERE payment_id = ?
            """;

    // The partial index payments_by_end_to_end_id (V5). An id is its payer bank's (its ISPB is in it, and payment-api
    // lets one id name one payment of that bank), so only that bank's payments are candidates: another bank's payment
    // carrying the same text, had one ever been accepted, could not shadow it. The oldest, should two share it.
    private static final String PAYMENT_BY_END_TO_END_ID = PAYMENT_COLUMNS + """
            FROM reporting.payments WHERE end_to_end_id = ? AND payer_bank_ispb = ?
            ORDER BY payment_id LIMIT 1
            """;

    // Newest first. The row comparison on the primary key (account_id, final_at, payment_id, direction)
    // is one backward index range scan, however deep the page.
    // A page's entries, then each one's return link from its payment row (a primary key probe per entry of the page).
    private static final String STATEMENT_FIRST = """
            SELECT e.final_at, e.payment_id, e.direction, e.counterparty_account_id, e.amount_centavos,
                   p.return_of, p.return_reason
            FROM (SELECT * FROM reporting.statement_entries
                  WHERE account_id = ?
                  ORDER BY final_at DESC, payment_id DESC, direction DESC
                  LIMIT ?) e
            LEFT JOIN reporting.payments p ON p.payment_id = e.payment_id
            ORDER BY e.final_at DESC, e.payment_id DESC, e.direction DESC
            """;

    private static final String STATEMENT_AFTER = """
            SELECT e.final_at, e.payment_id, e.direction, e.counterparty_account_id, e.amount_centavos,
                   p.return_of, p.return_reason
            FROM (SELECT * FROM reporting.statement_entries
                  WHERE account_id = ? AND (final_at, payment_id, direction) < (?::timestamptz, ?::uuid, ?::text)
                  ORDER BY final_at DESC, payment_id DESC, direction DESC
                  LIMIT ?) e
            LEFT JOIN reporting.payments p ON p.payment_id = e.payment_id
            ORDER BY e.final_at DESC, e.payment_id DESC, e.direction DESC
            """;

    // One row per bank and UTC day, kept by the projection (V4); none yet: nothing settled that day.
    private static final String POSITION = """
            SELECT sent_centavos, sent_count, received_centavos, received_count, on_us_centavos, on_us_count
            FROM reporting.bank_day_positions WHERE bank_ispb = ? AND day = ?
            """;

    // A bank's payments, newest first, among the switch's newest RECENT_SCAN_ROWS_MAX (of all statuses, or of one
    // status): a backward scan that stops there, whatever the bank. No index per bank on purpose: every projected
    // insert would pay for two more. Without the bound, a bank with few payments would make the scan read the whole
    // table (any bank could tie up the pool with a few calls); with it, one call reads at most RECENT_SCAN_ROWS_MAX
    // index entries and rows.
    static final int RECENT_SCAN_ROWS_MAX = 100_000;

    private static final String RECENT_OF_BANK = """
            SELECT payment_id, status, payer_account_id, payee_account_id, amount_centavos, accepted_at, final_at
            FROM (SELECT * FROM reporting.payments ORDER BY payment_id DESC LIMIT %d) recent
            WHERE payer_bank_ispb = ? OR payee_bank_ispb = ?
            ORDER BY payment_id DESC LIMIT ?
            """.formatted(RECENT_SCAN_ROWS_MAX);

    // ACCEPTED and SETTLED: no index covers the status (V4: finalizing a row then touches no index), and these are the
    // switch's newest payments (in flight, or settled within a second of acceptance), so the primary key's backward
    // scan of the newest payments finds them.
    private static final String RECENT_OF_BANK_WITH_STATUS = """
            SELECT payment_id, status, payer_account_id, payee_account_id, amount_centavos, accepted_at, final_at
            FROM (SELECT * FROM reporting.payments ORDER BY payment_id DESC LIMIT %d) recent
            WHERE status = ? AND (payer_bank_ispb = ? OR payee_bank_ispb = ?)
            ORDER BY payment_id DESC LIMIT ?
            """.formatted(RECENT_SCAN_ROWS_MAX);

    // REJECTED and EXPIRED are rare: their own insert-only table lists them, newest first, among the newest
    // RECENT_SCAN_ROWS_MAX of that status.
    private static final String RECENT_OF_BANK_NOT_SETTLED = """
            SELECT p.payment_id, p.status, p.payer_account_id, p.payee_account_id, p.amount_centavos, p.accepted_at,
                   p.final_at
            FROM (SELECT payment_id FROM reporting.payments_not_settled WHERE status = ?
                  ORDER BY payment_id DESC LIMIT %d) recent
            JOIN reporting.payments p USING (payment_id)
            WHERE p.payer_bank_ispb = ? OR p.payee_bank_ispb = ?
            ORDER BY p.payment_id DESC LIMIT ?
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
        List<PaymentView> rows = jdbc.query(PAYMENT, JdbcReadModelQueries::view, paymentId.toUuid());
        return rows.stream().findFirst();
    }

    @Override
    public Returns returnsOf(Id128 original) {
        List<ReturnSummary> listed = jdbc.query(
                RETURNS_LISTED,
                (row, n) -> new ReturnSummary(
                        id(row, "payment_id"),
                        row.getString("end_to_end_id"),
                        row.getLong("amount_centavos"),
                        row.getString("return_reason"),
                        PaymentStatus.valueOf(row.getString("status")),
                        instant(row, "accepted_at"),
                        instant(row, "final_at")),
                original.toUuid());
        return jdbc.queryForObject(
                RETURNS_TOTALS,
                (row, n) -> new Returns(listed, row.getLong("count"), row.getLong("settled"), row.getLong("in_flight")),
                original.toUuid());
    }

    @Override
    public Optional<PaymentView> paymentByEndToEndId(String endToEndId) {
        List<PaymentView> rows = jdbc.query(
                PAYMENT_BY_END_TO_END_ID,
                JdbcReadModelQueries::view,
                endToEndId,
                new PixId(endToEndId).bank().ispb());
        Check.that(
                rows.isEmpty() || endToEndId.equals(rows.getFirst().endToEndId()),
                "the payment read carries the end-to-end id asked");
        return rows.stream().findFirst();
    }

    @Override
    public StatementPage statement(Id128 accountId, StatementCursor after, int limit) {
        Check.that(limit >= 1 && limit <= StatementCursor.LIMIT_MAX, "statement limit in range: %d", limit);
        // One more than asked tells whether a next page exists without a count.
        List<StatementEntry> rows = after == null
                ? jdbc.query(STATEMENT_FIRST, JdbcReadModelQueries::entry, accountId.toUuid(), limit + 1)
                : jdbc.query(
                        STATEMENT_AFTER,
                        JdbcReadModelQueries::entry,
                        accountId.toUuid(),
                        OffsetDateTime.ofInstant(after.settledAt(), ZoneOffset.UTC),
                        after.paymentId().toUuid(),
                        after.direction().name(),
                        limit + 1);
        if (rows.size() <= limit) {
            return new StatementPage(rows, null);
        }
        List<StatementEntry> page = new ArrayList<>(rows.subList(0, limit));
        return new StatementPage(page, page.getLast().cursor());
    }

    @Override
    public BankPosition position(int ispb, LocalDate utcDate) {
        List<long[]> rows = jdbc.query(
                POSITION,
                (row, n) -> new long[] {
                    row.getLong("sent_centavos"), row.getLong("sent_count"), row.getLong("received_centavos"),
                    row.getLong("received_count"), row.getLong("on_us_centavos"), row.getLong("on_us_count")
                },
                ispb,
                utcDate);
        Check.that(rows.size() <= 1, "one position per bank and day: %d rows", rows.size());
        long[] p = rows.isEmpty() ? new long[6] : rows.getFirst();
        return new BankPosition(ispb, utcDate, p[0], p[1], p[2], p[3], p[4], p[5]);
    }

    @Override
    public List<PaymentSummary> recentPayments(BankId bank, PaymentStatus status, int limit) {
        Check.that(limit >= 1, "listing limit is positive: %d", limit);
        int ispb = bank.ispb();
        if (status == null) {
            return jdbc.query(RECENT_OF_BANK, JdbcReadModelQueries::summary, ispb, ispb, limit);
        }
        String query = switch (status) {
            case ACCEPTED, SETTLED -> RECENT_OF_BANK_WITH_STATUS;
            case REJECTED, EXPIRED -> RECENT_OF_BANK_NOT_SETTLED;
        };
        return jdbc.query(query, JdbcReadModelQueries::summary, status.name(), ispb, ispb, limit);
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

    private static PaymentView view(ResultSet row, int n) throws SQLException {
        return new PaymentView(
                id(row, "payment_id"),
                PaymentStatus.valueOf(row.getString("status")),
                id(row, "payer_account_id"),
                id(row, "payee_account_id"),
                (Integer) row.getObject("payer_bank_ispb"),
                (Integer) row.getObject("payee_bank_ispb"),
                row.getLong("amount_centavos"),
                row.getString("currency"),
                row.getString("description"),
                row.getString("end_to_end_id"),
                instant(row, "accepted_at"),
                instant(row, "requested_at"),
                row.getString("reason"),
                row.getString("detail"),
                instant(row, "final_at"),
                optionalId(row, "return_of"),
                row.getString("return_reason"),
                null);
    }

    private static Id128 optionalId(ResultSet row, String column) throws SQLException {
        UUID value = row.getObject(column, UUID.class);
        return value == null ? null : Id128.fromUuid(value);
    }

    private static StatementEntry entry(ResultSet row, int n) throws SQLException {
        return new StatementEntry(
                instant(row, "final_at"),
                id(row, "payment_id"),
                Direction.valueOf(row.getString("direction")),
                id(row, "counterparty_account_id"),
                row.getLong("amount_centavos"),
                optionalId(row, "return_of"),
                row.getString("return_reason"));
    }

    private static PaymentSummary summary(ResultSet row, int n) throws SQLException {
        return new PaymentSummary(
                id(row, "payment_id"),
                PaymentStatus.valueOf(row.getString("status")),
                id(row, "payer_account_id"),
                id(row, "payee_account_id"),
                row.getLong("amount_centavos"),
                instant(row, "accepted_at"),
                instant(row, "final_at"));
    }

    private static Id128 id(ResultSet row, String column) throws SQLException {
        return Id128.fromUuid(row.getObject(column, UUID.class));
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
