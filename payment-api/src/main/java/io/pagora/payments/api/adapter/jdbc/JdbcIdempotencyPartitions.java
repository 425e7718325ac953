package io.pagora.payments.api.adapter.jdbc;

import io.pagora.kernel.Check;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The retention of idempotency keys: {@code payment_api.idempotency_keys} is partitioned by claim day (UTC), and
 * each {@link #maintain} round creates the partitions of today and the next {@code daysAhead} days and drops
 * every partition whose days all lie before the window ({@code today - retentionDays}). Keys go in bulk, a whole
 * day at a time, never by row-by-row deletes under load; a key claimed on day D is kept until at least
 * D + retentionDays (a replay until then is a replay), and gone for good once its partition is dropped.
 *
 * <p>A round is one transaction holding an advisory lock, so that instances running it at once never race
 * (the others skip their round). Partition DDL locks the parent table for a moment: {@code lock_timeout}
 * bounds how long the claims can queue behind it; a round that times out changes nothing and the next one
 * retries. Partitions are created days ahead, so a missed round never leaves a claim without one.
 */
public final class JdbcIdempotencyPartitions {

    private static final Logger log = LoggerFactory.getLogger(JdbcIdempotencyPartitions.class);

    public static final int RETENTION_DAYS_MAX = 3_660;
    public static final int DAYS_AHEAD_MAX = 31;
    /** Arbitrary but fixed: the advisory lock one maintenance round holds ("idem" in ASCII). */
    private static final long MAINTENANCE_LOCK = 0x6964656dL;

    private static final String LOCK_TIMEOUT = "2s";
    private static final DateTimeFormatter NAME_DAY = DateTimeFormatter.BASIC_ISO_DATE;
    private static final Pattern BOUND = Pattern.compile(
            "FOR VALUES FROM \\((?:'(\\d{4}-\\d{2}-\\d{2})'|MINVALUE)\\) TO \\((?:'(\\d{4}-\\d{2}-\\d{2})'|MAXVALUE)\\)");
    private static final String PARTITIONS = """
            SELECT c.relname, pg_get_expr(c.relpartbound, c.oid)
            FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = ?::regclass
            ORDER BY c.relname
            """;
    /** The tables partitioned by day this class keeps: the idempotency keys, and the directory's look-ups. */
    public static final String IDEMPOTENCY_KEYS = "idempotency_keys";

    public static final String DIRECTORY_LOOKUPS = "directory_lookups";

    /**
     * One partition: rows claimed on days in [from, until). {@code from} is {@link LocalDate#MIN} for MINVALUE,
     * {@code until} {@link LocalDate#MAX} for MAXVALUE.
     */
    public record Partition(String name, LocalDate from, LocalDate until) {
        boolean covers(LocalDate day) {
            return !day.isBefore(from) && day.isBefore(until);
        }
    }

    /** What one round did; both empty if another instance held the round. */
    public record Maintenance(List<String> created, List<String> dropped) {}

    private final JdbcTemplate jdbc;
    private final String table;
    private final int retentionDays;
    private final int daysAhead;

    public JdbcIdempotencyPartitions(JdbcTemplate jdbc, int retentionDays, int daysAhead) {
        this(jdbc, IDEMPOTENCY_KEYS, retentionDays, daysAhead);
    }

    /** @param table {@value #IDEMPOTENCY_KEYS} or {@value #DIRECTORY_LOOKUPS}, in schema payment_api */
    public JdbcIdempotencyPartitions(JdbcTemplate jdbc, String table, int retentionDays, int daysAhead) {
        Check.that(
                IDEMPOTENCY_KEYS.equals(table) || DIRECTORY_LOOKUPS.equals(table),
                "a table partitioned by day: %s",
                table);
        this.table = table;
        Check.that(
                retentionDays >= 1 && retentionDays <= RETENTION_DAYS_MAX,
                "retention days in 1..%d: %d",
                RETENTION_DAYS_MAX,
                retentionDays);
        Check.that(daysAhead >= 1 && daysAhead <= DAYS_AHEAD_MAX, "days ahead in 1..%d: %d", DAYS_AHEAD_MAX, daysAhead);
        this.jdbc = jdbc;
        this.retentionDays = retentionDays;
        this.daysAhead = daysAhead;
    }

    /** Creates today's and the next days' partitions, drops those wholly before {@code today - retentionDays}. */
    public Maintenance maintain(LocalDate today) {
        return jdbc.execute((ConnectionCallback<Maintenance>) connection -> inTransaction(connection, today));
    }

    /** The partitions as they are now. */
    public List<Partition> partitions() {
        return jdbc.execute((ConnectionCallback<List<Partition>>) connection -> partitions(connection));
    }

    private Maintenance inTransaction(Connection connection, LocalDate today) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            Maintenance done = round(connection, today);
            connection.commit();
            if (!done.created().isEmpty() || !done.dropped().isEmpty()) {
                log.info(
                        "{}: partitions created {}, dropped {} (retention {} days)",
                        table,
                        done.created(),
                        done.dropped(),
                        retentionDays);
            }
            return done;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    private Maintenance round(Connection connection, LocalDate today) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            try (ResultSet locked =
                    statement.executeQuery("SELECT pg_try_advisory_xact_lock(" + MAINTENANCE_LOCK + ")")) {
                Check.that(locked.next(), "pg_try_advisory_xact_lock answers");
                if (!locked.getBoolean(1)) {
                    return new Maintenance(List.of(), List.of());
                }
            }
            statement.execute("SET LOCAL lock_timeout = '" + LOCK_TIMEOUT + "'");
            List<Partition> existing = partitions(connection);
            List<String> created = new ArrayList<>();
            for (int offset = 0; offset <= daysAhead; offset++) {
                LocalDate day = today.plusDays(offset);
                if (existing.stream().noneMatch(partition -> partition.covers(day))) {
                    String name = table + "_" + NAME_DAY.format(day);
                    statement.execute("CREATE TABLE payment_api." + name + " PARTITION OF payment_api." + table
                            + " FOR VALUES FROM ('" + day + "') TO ('" + day.plusDays(1) + "')");
                    created.add(name);
                }
            }
            LocalDate windowStart = today.minusDays(retentionDays);
            List<String> dropped = new ArrayList<>();
            for (Partition partition : existing) {
                if (!partition.until().isAfter(windowStart)) {
                    statement.execute("DROP TABLE payment_api." + quoted(partition.name()));
                    dropped.add(partition.name());
                }
            }
            return new Maintenance(List.copyOf(created), List.copyOf(dropped));
        }
    }

    private List<Partition> partitions(Connection connection) throws SQLException {
        List<Partition> partitions = new ArrayList<>();
        try (var statement = connection.prepareStatement(PARTITIONS)) {
            statement.setString(1, "payment_api." + table);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    String name = rows.getString(1);
                    Matcher bound = BOUND.matcher(rows.getString(2));
                    // Only partitions this class and the migration make: a bound it does not understand is never
                    // dropped.
                    Check.that(
                            bound.matches(),
                            "partition %s of payment_api.%s has an unexpected bound: %s",
                            name,
                            table,
                            rows.getString(2));
                    partitions.add(new Partition(
                            name,
                            bound.group(1) == null ? LocalDate.MIN : LocalDate.parse(bound.group(1)),
                            bound.group(2) == null ? LocalDate.MAX : LocalDate.parse(bound.group(2))));
                }
            }
        }
        return partitions;
    }

    private static String quoted(String identifier) {
        Check.that(identifier.matches("[a-z0-9_]{1,63}"), "a partition name this class can quote: %s", identifier);
        return "\"" + identifier + "\"";
    }
}
