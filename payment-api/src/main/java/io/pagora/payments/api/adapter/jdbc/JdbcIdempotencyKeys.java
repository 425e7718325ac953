package io.pagora.payments.api.adapter.jdbc;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.intake.IdempotencyKeys;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Scoped;
import io.pagora.payments.api.application.intake.IdempotencyKeys.ScopedId;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.PixId;
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
 * round trip, the rows of the keys that already existed and the rows of other keys that hold a claim's end-to-end id.
 * A key is unique per participant (the caller's principal name, {@code participant}): the same text claimed by two
 * banks is two rows. A payment's end-to-end id is a column of its key's row, unique per participant by an index of
 * its own: one row per payment names it by both.
 *
 * <p>The table is partitioned by claim day and kept for a retention window ({@link JdbcIdempotencyPartitions}):
 * a key and an id are looked for in every partition, so a replay on any later day of the window is a replay, and
 * claims of adjacent days are serialised by a lock so that two claims of one key (or one id) racing across midnight
 * cannot both insert (the design and its proof: migration {@code V3__idempotency_keys_partitioned_by_claim_day.sql}).
 *
 * <p>A key or an id inserted by a concurrent transaction that commits while this statement runs is in neither
 * half (the insert skips it, the statement's snapshot predates it): those keys are claimed again by a
 * new statement with a new snapshot, a bounded number of times.
 */
public final class JdbcIdempotencyKeys implements IdempotencyKeys {

    static final int ATTEMPTS_MAX = 3;

    /**
     * Looks for every key, and every claim's id under another key, in every partition first: a key claimed on an
     * earlier day of the window is a replay, never a second row. Only keys found nowhere are inserted, in the claim
     * day's partition, with their id unless another key's row holds it (then that row answers for the id).
     */
    private static final String CLAIM = """
            WITH request AS (
                SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::uuid[], ?::text[])
                    AS r(participant, idempotency_key, request_hex, payment_id, end_to_end_id)
            ), by_key AS (
                SELECT k.participant, k.idempotency_key, k.request_sha256, k.payment_id, k.accepted_at,
                       k.end_to_end_id
                FROM payment_api.idempotency_keys k
                JOIN request r ON r.participant = k.participant AND r.idempotency_key = k.idempotency_key
            ), by_id AS (
                SELECT r.idempotency_key AS claim_key, k.participant, k.idempotency_key, k.request_sha256,
                       k.payment_id, k.accepted_at, k.end_to_end_id
                FROM payment_api.idempotency_keys k
                JOIN request r ON r.participant = k.participant AND r.end_to_end_id = k.end_to_end_id
                WHERE k.idempotency_key <> r.idempotency_key
            ), inserted AS (
                INSERT INTO payment_api.idempotency_keys (participant, idempotency_key, request_sha256, payment_id,
                        accepted_at, claimed_on, end_to_end_id)
                SELECT r.participant, r.idempotency_key, decode(r.request_hex, 'hex'), r.payment_id, ?::timestamptz,
                        ?::date,
                        CASE WHEN EXISTS (SELECT 1 FROM by_id i
                                          WHERE i.participant = r.participant AND i.claim_key = r.idempotency_key)
                             THEN NULL ELSE r.end_to_end_id END
                FROM request r
                WHERE NOT EXISTS (SELECT 1 FROM by_key e
                                  WHERE e.participant = r.participant AND e.idempotency_key = r.idempotency_key)
                ON CONFLICT DO NOTHING
                RETURNING participant, idempotency_key, request_sha256, payment_id, accepted_at, end_to_end_id
            )
            SELECT 'i', participant, idempotency_key, idempotency_key, request_sha256, payment_id, accepted_at,
                   end_to_end_id FROM inserted
            UNION ALL
            SELECT 'k', participant, idempotency_key, idempotency_key, request_sha256, payment_id, accepted_at,
                   end_to_end_id FROM by_key
            UNION ALL
            SELECT 'e', participant, claim_key, idempotency_key, request_sha256, payment_id, accepted_at,
                   end_to_end_id FROM by_id
            """;

    /** Keys and ids are looked for in every partition, as a claim does; at most one row per key and per id. */
    private static final String FIND = """
            SELECT 'k', k.participant, k.idempotency_key, k.request_sha256, k.payment_id, k.accepted_at,
                   k.end_to_end_id
            FROM payment_api.idempotency_keys k
            JOIN unnest(?::text[], ?::text[]) AS r(participant, idempotency_key)
              ON r.participant = k.participant AND r.idempotency_key = k.idempotency_key
            UNION ALL
            SELECT 'e', k.participant, k.idempotency_key, k.request_sha256, k.payment_id, k.accepted_at,
                   k.end_to_end_id
            FROM payment_api.idempotency_keys k
            JOIN unnest(?::text[], ?::text[]) AS r(participant, end_to_end_id)
              ON r.participant = k.participant AND r.end_to_end_id = k.end_to_end_id
            """;

    private final JdbcTemplate jdbc;

    public JdbcIdempotencyKeys(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Map<Scoped, Claimed> claimAll(List<Claim> claims, Instant acceptedAt) {
        Map<Scoped, Claimed> answered = new HashMap<>(claims.size() * 2);
        List<Claim> pending = claims;
        for (int attempt = 1; !pending.isEmpty(); attempt++) {
            Check.that(
                    attempt <= ATTEMPTS_MAX,
                    "idempotency keys still unclaimed after %d attempts: %d keys",
                    ATTEMPTS_MAX,
                    pending.size());
            List<Claim> batch = pending;
            answered.putAll(jdbc.execute(
                    (ConnectionCallback<Map<Scoped, Claimed>>) connection -> claimOnce(connection, batch, acceptedAt)));
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
    public Found find(List<Scoped> keys, List<ScopedId> ids) {
        Check.that(
                keys.size() + ids.size() <= FIND_KEYS_MAX,
                "at most %d names looked for at once: %d",
                FIND_KEYS_MAX,
                keys.size() + ids.size());
        Map<Scoped, Stored> byKey = new HashMap<>();
        Map<ScopedId, Stored> byId = new HashMap<>();
        if (keys.isEmpty() && ids.isEmpty()) {
            return new Found(byKey, byId);
        }
        String[] keyParticipants =
                keys.stream().map(key -> key.participant().principalName()).toArray(String[]::new);
        String[] keyValues = keys.stream().map(key -> key.key().value()).toArray(String[]::new);
        String[] idParticipants =
                ids.stream().map(id -> id.participant().principalName()).toArray(String[]::new);
        String[] idValues = ids.stream().map(id -> id.id().value()).toArray(String[]::new);
        jdbc.query(
                connection -> {
                    PreparedStatement statement = connection.prepareStatement(FIND);
                    statement.setArray(1, connection.createArrayOf("text", keyParticipants));
                    statement.setArray(2, connection.createArrayOf("text", keyValues));
                    statement.setArray(3, connection.createArrayOf("text", idParticipants));
                    statement.setArray(4, connection.createArrayOf("text", idValues));
                    return statement;
                },
                row -> {
                    Scoped key = new Scoped(participant(row.getString(2)), new IdempotencyKey(row.getString(3)));
                    Stored stored = stored(key, row, 4, false);
                    if (row.getString(1).equals("k")) {
                        Check.that(byKey.put(key, stored) == null, "one row per key: %s", key);
                    } else {
                        ScopedId id = new ScopedId(key.participant(), new PixId(stored.endToEndId()));
                        Check.that(byId.put(id, stored) == null, "one row per id: %s", id);
                    }
                });
        return new Found(byKey, byId);
    }

    /** A row's columns from {@code first} on: request_sha256, payment_id, accepted_at, end_to_end_id. */
    private static Stored stored(Scoped key, ResultSet row, int first, boolean inserted) throws SQLException {
        return new Stored(
                key,
                row.getBytes(first),
                new PaymentId(Id128.fromUuid(row.getObject(first + 1, UUID.class))),
                row.getObject(first + 2, OffsetDateTime.class).toInstant(),
                inserted,
                row.getString(first + 3));
    }

    /** One claim in its own transaction (the claim day's lock is held until it commits). */
    private static Map<Scoped, Claimed> claimOnce(Connection connection, List<Claim> claims, Instant acceptedAt)
            throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            Map<Scoped, Claimed> stored = claimInTransaction(connection, claims, acceptedAt);
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
    static Map<Scoped, Claimed> claimInTransaction(Connection connection, List<Claim> claims, Instant acceptedAt)
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
        String[] endToEndIds = new String[claims.size()];
        HexFormat hex = HexFormat.of();
        for (int i = 0; i < claims.size(); i++) {
            Claim claim = claims.get(i);
            participants[i] = claim.key().participant().principalName();
            keys[i] = claim.key().key().value();
            hashes[i] = hex.formatHex(claim.requestSha256());
            paymentIds[i] = claim.candidateId().value().toUuid();
            endToEndIds[i] =
                    claim.endToEndId() == null ? null : claim.endToEndId().value();
        }
        Map<Scoped, Stored> byKey = new HashMap<>(claims.size() * 2);
        Map<Scoped, Stored> byId = new HashMap<>();
        Array participantArray = connection.createArrayOf("text", participants);
        Array keyArray = connection.createArrayOf("text", keys);
        Array hashArray = connection.createArrayOf("text", hashes);
        Array idArray = connection.createArrayOf("uuid", paymentIds);
        Array endToEndIdArray = connection.createArrayOf("text", endToEndIds);
        try (PreparedStatement statement = connection.prepareStatement(CLAIM)) {
            statement.setArray(1, participantArray);
            statement.setArray(2, keyArray);
            statement.setArray(3, hashArray);
            statement.setArray(4, idArray);
            statement.setArray(5, endToEndIdArray);
            statement.setObject(6, OffsetDateTime.ofInstant(acceptedAt, ZoneOffset.UTC));
            statement.setObject(7, claimedOn);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    String foundBy = rows.getString(1);
                    Caller participant = participant(rows.getString(2));
                    Scoped claimKey = new Scoped(participant, new IdempotencyKey(rows.getString(3)));
                    Scoped rowKey = new Scoped(participant, new IdempotencyKey(rows.getString(4)));
                    Stored row = stored(rowKey, rows, 5, foundBy.equals("i"));
                    if (foundBy.equals("e")) {
                        Check.that(byId.put(claimKey, row) == null, "one row per id: %s", claimKey);
                    } else {
                        Check.that(byKey.put(claimKey, row) == null, "one row per key: %s", claimKey);
                    }
                }
            }
        } finally {
            participantArray.free();
            keyArray.free();
            hashArray.free();
            idArray.free();
            endToEndIdArray.free();
        }
        Map<Scoped, Claimed> claimed = new HashMap<>(byKey.size() * 2);
        // A claim skipped by a concurrent insert of its key or id has no row yet: claimAll claims it again.
        byKey.forEach((key, row) -> claimed.put(key, new Claimed(row, byId.get(key))));
        return claimed;
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
