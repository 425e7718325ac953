package io.pagora.payments.api.adapter.jdbc;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.IdempotencyKeys;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.settlement.domain.PaymentId;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
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
 * round trip, the rows of the keys that already existed.
 *
 * <p>A key inserted by a concurrent transaction that commits while this statement runs is in neither
 * half (the insert skips it, the statement's snapshot predates it): those keys are claimed again by a
 * new statement with a new snapshot, a bounded number of times.
 */
public final class JdbcIdempotencyKeys implements IdempotencyKeys {

    static final int ATTEMPTS_MAX = 3;

    private static final String CLAIM = """
            WITH request AS (
                SELECT * FROM unnest(?::text[], ?::text[], ?::uuid[]) AS r(idempotency_key, request_hex, payment_id)
            ), inserted AS (
                INSERT INTO payment_api.idempotency_keys (idempotency_key, request_sha256, payment_id, accepted_at)
                SELECT idempotency_key, decode(request_hex, 'hex'), payment_id, ?::timestamptz FROM request
                ON CONFLICT (idempotency_key) DO NOTHING
                RETURNING idempotency_key, request_sha256, payment_id, accepted_at
            )
            SELECT idempotency_key, request_sha256, payment_id, accepted_at, true AS inserted FROM inserted
            UNION ALL
            SELECT k.idempotency_key, k.request_sha256, k.payment_id, k.accepted_at, false AS inserted
            FROM payment_api.idempotency_keys k JOIN request r ON r.idempotency_key = k.idempotency_key
            """;

    private final JdbcTemplate jdbc;

    public JdbcIdempotencyKeys(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Map<IdempotencyKey, Stored> claimAll(List<Claim> claims, Instant acceptedAt) {
        Map<IdempotencyKey, Stored> answered = new HashMap<>(claims.size() * 2);
        List<Claim> pending = claims;
        for (int attempt = 1; !pending.isEmpty(); attempt++) {
            Check.that(attempt <= ATTEMPTS_MAX, "idempotency keys still unclaimed after %d attempts: %d keys",
                    ATTEMPTS_MAX, pending.size());
            List<Claim> batch = pending;
            answered.putAll(jdbc.execute((ConnectionCallback<Map<IdempotencyKey, Stored>>)
                    connection -> claimOnce(connection, batch, acceptedAt)));
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

    private static Map<IdempotencyKey, Stored> claimOnce(Connection connection, List<Claim> claims, Instant acceptedAt)
            throws SQLException {
        String[] keys = new String[claims.size()];
        String[] hashes = new String[claims.size()];
        UUID[] paymentIds = new UUID[claims.size()];
        HexFormat hex = HexFormat.of();
        for (int i = 0; i < claims.size(); i++) {
            Claim claim = claims.get(i);
            keys[i] = claim.key().value();
            hashes[i] = hex.formatHex(claim.requestSha256());
            paymentIds[i] = claim.candidateId().value().toUuid();
        }
        Map<IdempotencyKey, Stored> stored = new HashMap<>(claims.size() * 2);
        Array keyArray = connection.createArrayOf("text", keys);
        Array hashArray = connection.createArrayOf("text", hashes);
        Array idArray = connection.createArrayOf("uuid", paymentIds);
        try (PreparedStatement statement = connection.prepareStatement(CLAIM)) {
            statement.setArray(1, keyArray);
            statement.setArray(2, hashArray);
            statement.setArray(3, idArray);
            statement.setObject(4, OffsetDateTime.ofInstant(acceptedAt, ZoneOffset.UTC));
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    IdempotencyKey key = new IdempotencyKey(rows.getString(1));
                    Stored row = new Stored(key, rows.getBytes(2),
                            new PaymentId(Id128.fromUuid(rows.getObject(3, UUID.class))),
                            rows.getObject(4, OffsetDateTime.class).toInstant(), rows.getBoolean(5));
                    Check.that(stored.put(key, row) == null, "one row per key: %s", key);
                }
            }
        } finally {
            keyArray.free();
            hashArray.free();
            idArray.free();
        }
        return stored;
    }
}
