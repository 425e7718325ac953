package io.pagora.payments.api.adapter.jdbc;

import io.pagora.kernel.Check;
import io.pagora.payments.api.application.limits.SharedLimitStore;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The shared limits in PostgreSQL (V5, V6): each round locks its buckets in key order (so two instances' rounds never
 * deadlock), then one statement leases for every participant of the round, refilling each bucket by PostgreSQL's own
 * clock ({@code now()}, so the instances' clocks never count) up to the burst less what the live instances hold, and
 * records what this instance holds. New buckets are created in key order too.
 */
public final class JdbcSharedLimitStore implements SharedLimitStore {

    /** Buckets this instance knows exist: created once, never deleted (the switch's participants, a bounded set). */
    private static final int KNOWN_MAX = 1_000_000;

    private static final Comparator<Lease> KEY_ORDER =
            Comparator.comparing(Lease::bucket).thenComparing(Lease::participant);

    private static final String CREATE = """
            INSERT INTO payment_api.participant_limit_buckets (bucket, participant, tokens, refilled_at)
            SELECT bucket, participant, burst, now()
            FROM unnest(?::text[], ?::text[], ?::float8[]) AS a(bucket, participant, burst)
            ORDER BY bucket, participant
            ON CONFLICT (bucket, participant) DO NOTHING
            """;

    /**
     * First, in the round's transaction: the holdings of a bucket change only under its lock, so the next statement,
     * with a snapshot taken after the locks, sees every instance's latest.
     */
    private static final String LOCK = """
            SELECT 1 FROM payment_api.participant_limit_buckets
            WHERE (bucket, participant) IN (SELECT * FROM unnest(?::text[], ?::text[]))
            ORDER BY bucket, participant
            FOR UPDATE
            """;

    /**
     * The refill is capped by what the live instances held as they last said, this one included: each only spent
     * since, so the bucket and the holdings together stay within the burst over the whole time the refill covers.
     */
    private static final String LEASE = """
            WITH asked AS (
                SELECT * FROM unnest(?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[],
                        ?::float8[], ?::float8[])
                    WITH ORDINALITY AS a(bucket, participant, want, debt, returned, kept, burst, refill, ord)
            ), held_out AS (
                SELECT l.bucket, l.participant, sum(l.held)::float8 AS held
                FROM payment_api.participant_limit_leases l
                JOIN payment_api.payment_api_instances i USING (instance_id)
                JOIN asked a USING (bucket, participant)
                WHERE i.seen_at > now() - make_interval(secs => ?)
                GROUP BY l.bucket, l.participant
            ), refilled AS (
                SELECT a.ord, b.bucket, b.participant, a.want, a.kept, GREATEST(b.refilled_at, now()) AS at,
                       LEAST(GREATEST(0, a.burst - COALESCE(h.held, 0)), b.tokens + a.refill
                               * GREATEST(0, EXTRACT(EPOCH FROM now() - b.refilled_at)::float8))
                           + a.returned - a.debt AS tokens
                FROM payment_api.participant_limit_buckets b
                JOIN asked a USING (bucket, participant)
                LEFT JOIN held_out h USING (bucket, participant)
            ), granted AS (
                SELECT r.*, LEAST(r.want, GREATEST(0, floor(r.tokens)))::bigint AS granted FROM refilled r
            ), holds AS (
                INSERT INTO payment_api.participant_limit_leases (bucket, participant, instance_id, held)
                SELECT bucket, participant, ?, kept + granted FROM granted
                ORDER BY bucket, participant
                ON CONFLICT (bucket, participant, instance_id) DO UPDATE SET held = EXCLUDED.held
            )
            UPDATE payment_api.participant_limit_buckets b SET tokens = g.tokens - g.granted, refilled_at = g.at
            FROM granted g WHERE b.bucket = g.bucket AND b.participant = g.participant
            RETURNING g.ord, g.granted, b.tokens
            """;

    private static final String HEARTBEAT = """
            WITH beat AS (
                INSERT INTO payment_api.payment_api_instances (instance_id, seen_at) VALUES (?, now())
                ON CONFLICT (instance_id) DO UPDATE SET seen_at = now()
            ), gone AS (
                DELETE FROM payment_api.payment_api_instances WHERE seen_at < now() - interval '1 day'
            )
            SELECT count(*) + 1 FROM payment_api.payment_api_instances
            WHERE seen_at > now() - make_interval(secs => ?) AND instance_id <> ?
            """;

    private final JdbcTemplate jdbc;
    private final Set<String> known = ConcurrentHashMap.newKeySet();

    /** {@code jdbc}: with a query timeout, so a stuck database cannot hold the leaser's thread for long. */
    public JdbcSharedLimitStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<Grant> lease(UUID instance, long liveMillis, List<Lease> leases) {
        int count = leases.size();
        Check.that(count >= 1 && count <= KNOWN_MAX, "1..%d leases at once: %d", KNOWN_MAX, count);
        // In key order, as the statement inserts them: two instances creating the same buckets never deadlock.
        List<Lease> unknown = leases.stream()
                .filter(lease -> !known.contains(key(lease)))
                .sorted(KEY_ORDER)
                .toList();
        if (!unknown.isEmpty()) {
            jdbc.execute((Connection connection) -> {
                try (PreparedStatement statement = connection.prepareStatement(CREATE)) {
                    statement.setArray(
                            1,
                            texts(
                                    connection,
                                    unknown.stream().map(Lease::bucket).toList()));
                    statement.setArray(
                            2,
                            texts(
                                    connection,
                                    unknown.stream().map(Lease::participant).toList()));
                    statement.setArray(
                            3,
                            connection.createArrayOf(
                                    "float8",
                                    unknown.stream()
                                            .map(lease -> (Object) (double) lease.burst())
                                            .toArray()));
                    statement.executeUpdate();
                }
                return null;
            });
        }
        Grant[] grants = new Grant[count];
        jdbc.execute((Connection connection) -> {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                try (PreparedStatement statement = connection.prepareStatement(LOCK)) {
                    statement.setArray(
                            1,
                            texts(connection, leases.stream().map(Lease::bucket).toList()));
                    statement.setArray(
                            2,
                            texts(
                                    connection,
                                    leases.stream().map(Lease::participant).toList()));
                    statement.executeQuery().close();
                }
                try (PreparedStatement statement = connection.prepareStatement(LEASE)) {
                    statement.setArray(
                            1,
                            texts(connection, leases.stream().map(Lease::bucket).toList()));
                    statement.setArray(
                            2,
                            texts(
                                    connection,
                                    leases.stream().map(Lease::participant).toList()));
                    statement.setArray(
                            3,
                            longs(
                                    connection,
                                    leases.stream().mapToLong(Lease::want).toArray()));
                    statement.setArray(
                            4,
                            longs(
                                    connection,
                                    leases.stream().mapToLong(Lease::debt).toArray()));
                    statement.setArray(
                            5,
                            longs(
                                    connection,
                                    leases.stream().mapToLong(Lease::returned).toArray()));
                    statement.setArray(
                            6,
                            longs(
                                    connection,
                                    leases.stream().mapToLong(Lease::kept).toArray()));
                    statement.setArray(
                            7,
                            connection.createArrayOf(
                                    "float8",
                                    leases.stream()
                                            .map(lease -> (Object) (double) lease.burst())
                                            .toArray()));
                    statement.setArray(
                            8,
                            connection.createArrayOf(
                                    "float8",
                                    leases.stream()
                                            .map(lease -> (Object) lease.refillPerSecond())
                                            .toArray()));
                    statement.setDouble(9, liveMillis / 1000.0);
                    statement.setObject(10, instance);
                    try (ResultSet rows = statement.executeQuery()) {
                        while (rows.next()) {
                            int index = Math.toIntExact(rows.getLong(1) - 1);
                            Check.that(index >= 0 && index < count && grants[index] == null, "one row per lease");
                            grants[index] = new Grant(rows.getLong(2), rows.getDouble(3));
                        }
                    }
                }
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
            return null;
        });
        if (!Arrays.stream(grants).allMatch(grant -> grant != null)) {
            // A bucket this instance thought was there is not (the table emptied): created again next round.
            known.clear();
            throw new IllegalStateException("a leased bucket is missing");
        }
        if (known.size() < KNOWN_MAX) {
            unknown.forEach(lease -> known.add(key(lease)));
        }
        return List.of(grants);
    }

    @Override
    public int heartbeat(UUID instance, long liveMillis) {
        Integer live = jdbc.queryForObject(HEARTBEAT, Integer.class, instance, liveMillis / 1000.0, instance);
        Check.that(live != null && live >= 1, "this instance counts itself");
        return live;
    }

    @Override
    public void leave(UUID instance) {
        jdbc.update("DELETE FROM payment_api.payment_api_instances WHERE instance_id = ?", instance);
    }

    private static String key(Lease lease) {
        return lease.bucket() + ' ' + lease.participant();
    }

    private static Array texts(Connection connection, List<String> values) throws SQLException {
        return connection.createArrayOf("text", values.toArray());
    }

    private static Array longs(Connection connection, long[] values) throws SQLException {
        List<Object> boxed = new ArrayList<>(values.length);
        for (long value : values) {
            boxed.add(value);
        }
        return connection.createArrayOf("bigint", boxed.toArray());
    }
}
