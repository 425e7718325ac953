package io.pagora.payments.api.adapter.jdbc;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.intake.IdempotencyKeys;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Scoped;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.access.Caller;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Idempotency keys in PostgreSQL ({@code payment_api.idempotency_keys}), claimed set-based: one
 * statement inserts every new key ({@code unnest … ON CONFLICT DO NOTHING}) and returns, in the same
 * round trip, the rows of the keys that already existed. A key is unique per participant (the caller's
 * principal name, {@code participant}): the same text claimed by two banks is two rows.
 *
 * <p>The table is partitioned by claim day and kept for a retention window ({@link JdbcIdempotencyPartitions}):
 * a key is looked for in every partition, so a replay on any later day of the window is a replay, and claims
 * of adjacent days are serialised by a lock so that two claims of one key racing across midnight cannot both
 * insert (the design and its proof: migration {@code V3__idempotency_keys_partitioned_by_claim_day.sql}).
 *
 * <p>A key inserted by a concurrent transaction that commits while this statement runs is in neither
 * half (the insert skips it, the statement's snapshot predates it): those keys are claimed again by a
 * new statement with a new snapshot, a bounded number of times.
 */
public final class JdbcIdempotencyKeys implements IdempotencyKeys {

    static final int ATTEMPTS_MAX = 3;

    /**
     * Looks for every key in every partition first: a key claimed on an earlier day of the window is a replay,
     * never a second row. Only keys found nowhere are inserted, in the claim day's partition.
     */
    private static final String CLAIM = """
            WITH request AS (
                SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::uuid[])
                    AS r(participant, idempotency_key, request_hex, payment_id)
            ), earlier AS (
                SELECT k.participant, k.idempotency_key, k.request_sha256, k.payment_id, k.accepted_at
                FROM payment_api.idempotency_keys k
                JOIN request r ON r.participant = k.participant AND r.idempotency_key = k.idempotency_key
            ), inserted AS (
                INSERT INTO payment_api.idempotency_keys (participant, idempotency_key, request_sha256, payment_id,
                        accepted_at, claimed_on)
                SELECT r.participant, r.idempotency_key, decode(r.request_hex, 'hex'), r.payment_id, ?::timestamptz,
                        ?::date
                FROM request r
                WHERE NOT EXISTS (SELECT 1 FROM earlier e
                                  WHERE e.participant = r.participant AND e.idempotency_key = r.idempotency_key)
                ON CONFLICT (participant, idempotency_key, claimed_on) DO NOTHING
                RETURNING participant, idempotency_key, request_sha256, payment_id, accepted_at
            )
            SELECT participant, idempotency_key, request_sha256, payment_id, accepted_at, true AS inserted FROM inserted
            UNION ALL
            SELECT participant, idempotency_key, request_sha256, payment_id, accepted_at, false AS inserted FROM earlier
            """;

    /** Keys are looked for in every partition, as a claim does; at most one row per key (V3's design). */
    private static final String FIND = """
            SELECT k.participant, k.idempotency_key, k.request_sha256, k.payment_id, k.accepted_at
            FROM payment_api.idempotency_keys k
            JOIN unnest(?::text[], ?::text[]) AS r(participant, idempotency_key)
              ON r.participant = k.participant AND r.idempotency_key = k.idempotency_key
            """;

    private final JdbcTemplate jdbc;

    public JdbcIdempotencyKeys(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Map<Scoped, Stored> claimAll(List<Claim> claims, Instant acceptedAt) {
        Map<Scoped, Stored> answered = new HashMap<>(claims.size() * 2);
        List<Claim> pending = claims;
        for (int attempt = 1; !pending.isEmpty(); attempt++) {
            Check.that(
                    attempt <= ATTEMPTS_MAX,
                    "idempotency keys still unclaimed after %d attempts: %d keys",
                    ATTEMPTS_MAX,
                    pending.size());
            List<Claim> batch = pending;
            answered.putAll(jdbc.execute(
                    (ConnectionCallback<Map<Scoped, Stored>>) connection -> claimOnce(connection, batch, acceptedAt)));
            List<Claim> missing = new ArrayList<>();
            for (Claim claim : pending) {
                if (!answered.containsKey(claim.key())) {
                    missing.add(claim);
                }
            }
            pending = missing;
        }
        return answered;
    }

    @Override
    public Map<Scoped, Stored> find(List<Scoped> keys) {
        Check.that(keys.size() <= FIND_KEYS_MAX, "at most %d keys looked for at once: %d", FIND_KEYS_MAX, keys.size());
        if (keys.isEmpty()) {
            return Map.of();
        }
        String[] participants =
                keys.stream().map(key -> key.participant().principalName()).toArray(String[]::new);
        String[] values = keys.stream().map(key -> key.key().value()).toArray(String[]::new);
        Map<Scoped, Stored> found = new HashMap<>();
        jdbc.query(
                connection -> {
                    PreparedStatement statement = connection.prepareStatement(FIND);
                    statement.setArray(1, connection.createArrayOf("text", participants));
                    statement.setArray(2, connection.createArrayOf("text", values));
                    return statement;
                },
                row -> {
                    Scoped key = new Scoped(participant(row.getString(1)), new IdempotencyKey(row.getString(2)));
                    Check.that(
                            found.put(
                                            key,
                                            new Stored(
                                                    key,
                                                    row.getBytes(3),
                                                    new PaymentId(Id128.fromUuid(row.getObject(4, UUID.class))),
                                                    row.getObject(5, OffsetDateTime.class)
                                                            .toInstant(),
                                                    false))
                                    == null,
                            "one row per key: %s",
                            key);
                });
        return found;
    }

    /** One claim in its own transaction (the claim day's lock is held until it commits). */
    private static Map<Scoped, Stored> claimOnce(Connection connection, List<Claim> claims, Instant acceptedAt)
            throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            Map<Scoped, Stored> stored = claimInTransaction(connection, claims, acceptedAt);
            connection.commit();
            return stored;
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    /**
     * Takes the claim day's lock, then claims, in the caller's open transaction. The lock comes first, in a
     * statement of its own: in READ COMMITTED the claim's snapshot is taken when the claim starts, so it sees
     * every claim of the day before that finished while this one waited (see V3's migration for the design).
     */
    static Map<Scoped, Stored> claimInTransaction(Connection connection, List<Claim> claims, Instant acceptedAt)
            throws SQLException {
        Check.that(!connection.getAutoCommit(), "a claim runs in a transaction: its day lock lasts until commit");
        LocalDate claimedOn = claimDay(acceptedAt);
        try (Statement lock = connection.createStatement()) {
            // Index probes only, in every partition: a day's partition is created empty, days ahead, and fills at
            // thousands of rows a second from midnight; a plan made (and cached) while it was empty would scan it
            // whole once per key until the next ANALYZE. One round trip for both statements.
            lock.execute("SET LOCAL enable_seqscan = off; LOCK TABLE payment_api.idempotency_claim_days IN "
                    + lockMode(claimedOn) + " MODE");
        }
        String[] participants = new String[claims.size()];
        String[] keys = new String[claims.size()];
        String[] hashes = new String[claims.size()];
        UUID[] paymentIds = new UUID[claims.size()];
        HexFormat hex = HexFormat.of();
        for (int i = 0; i < claims.size(); i++) {
            Claim claim = claims.get(i);
            participants[i] = claim.key().participant().principalName();
            keys[i] = claim.key().key().value();
            hashes[i] = hex.formatHex(claim.requestSha256());
            paymentIds[i] = claim.candidateId().value().toUuid();
        }
        Map<Scoped, Stored> stored = new HashMap<>(claims.size() * 2);
        Array participantArray = connection.createArrayOf("text", participants);
        Array keyArray = connection.createArrayOf("text", keys);
        Array hashArray = connection.createArrayOf("text", hashes);
        Array idArray = connection.createArrayOf("uuid", paymentIds);
        try (PreparedStatement statement = connection.prepareStatement(CLAIM)) {
            statement.setArray(1, participantArray);
            statement.setArray(2, keyArray);
            statement.setArray(3, hashArray);
            statement.setArray(4, idArray);
            statement.setObject(5, OffsetDateTime.ofInstant(acceptedAt, ZoneOffset.UTC));
            statement.setObject(6, claimedOn);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    Scoped key = new Scoped(participant(rows.getString(1)), new IdempotencyKey(rows.getString(2)));
                    Stored row = new Stored(
                            key,
                            rows.getBytes(3),
                            new PaymentId(Id128.fromUuid(rows.getObject(4, UUID.class))),
                            rows.getObject(5, OffsetDateTime.class).toInstant(),
                            rows.getBoolean(6));
                    Check.that(stored.put(key, row) == null, "one row per key: %s", key);
                }
            }
        } finally {
            participantArray.free();
            keyArray.free();
            hashArray.free();
            idArray.free();
        }
        return stored;
    }

    /** The partition a claim made at {@code acceptedAt} goes to: its UTC day. */
    static LocalDate claimDay(Instant acceptedAt) {
        return LocalDate.ofInstant(acceptedAt, ZoneOffset.UTC);
    }

    /**
     * Two table lock modes, each compatible with itself and in conflict with the other: claims of one day run
     * together, claims of adjacent days (always of different parity) one after the other.
     */
    static String lockMode(LocalDate claimedOn) {
        return Math.floorMod(claimedOn.toEpochDay(), 2) == 0 ? "ROW EXCLUSIVE" : "SHARE";
    }

    /** Rows are only ever joined to the claims' participants, each a caller's principal name. */
    private static Caller participant(String principalName) {
        return Caller.ofPrincipalName(principalName)
                .orElseThrow(
                        () -> new IllegalStateException("an idempotency key row names no caller: " + principalName));
    }
}
