package io.pagora.payments.api.adapter.jdbc;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.directory.LookupStore;
import io.pagora.payments.api.domain.directory.KeyEntry;
import io.pagora.payments.api.domain.directory.KeyType;
import io.pagora.payments.api.domain.directory.PixKey;
import io.pagora.payments.api.domain.directory.TokenBucket;
import io.pagora.settlement.domain.PixId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The look-ups' buckets and reservations in PostgreSQL: a batch of look-ups is one transaction of four statements
 * whatever its size (lock the buckets, read the keys, write the levels, insert the reservations), and the payments of
 * an intake batch find their look-ups in one.
 */
public final class JdbcLookupStore implements LookupStore {

    /** A bank's own bucket is stored under this payer id. */
    private static final String BANKS_OWN = "";

    private static final Comparator<BucketId> ORDER = Comparator.comparing(BucketId::participant)
            .thenComparing(bucket -> bucket.payerId() == null ? BANKS_OWN : bucket.payerId());

    /**
     * Creates the buckets never seen, full, and locks every one, in one order (the rows' primary key), so two batches
     * never deadlock: the no-op update takes the row lock and answers the stored level.
     */
    private static final String LOCK_BUCKETS = """
            INSERT INTO payment_api.directory_buckets (participant, payer_id, tokens, refilled_at)
            SELECT b.participant, b.payer_id, b.tokens, statement_timestamp()
            FROM unnest(?::text[], ?::text[], ?::float8[]) AS b(participant, payer_id, tokens)
            ORDER BY b.participant, b.payer_id
            ON CONFLICT (participant, payer_id) DO UPDATE SET tokens = directory_buckets.tokens
            RETURNING participant, payer_id, tokens, refilled_at, statement_timestamp()
            """;

    private static final String WRITE_BUCKETS = """
            UPDATE payment_api.directory_buckets b SET tokens = v.tokens, refilled_at = v.refilled_at
            FROM unnest(?::text[], ?::text[], ?::float8[], ?::timestamptz[]) AS v(participant, payer_id, tokens, refilled_at)
            WHERE b.participant = v.participant AND b.payer_id = v.payer_id
            """;

    private static final String RESERVE = """
            INSERT INTO payment_api.directory_lookups (participant, end_to_end_id, key_value, key_type, account_id,
                    payer_id, looked_up_at, looked_up_on)
            SELECT r.participant, r.end_to_end_id, r.key_value, r.key_type, r.account_id, r.payer_id, ?::timestamptz,
                    ?::date
            FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::uuid[], ?::text[])
                AS r(participant, end_to_end_id, key_value, key_type, account_id, payer_id)
            """;

    /**
     * Each look-up named, the key as it is now; those not paid whose key is unmoved are marked paid. A concurrent
     * statement that marked one first leaves it unmarked here (the row is re-checked after its lock).
     */
    private static final String PAY = """
            WITH asked AS (
                SELECT * FROM unnest(?::text[], ?::text[]) AS a(participant, end_to_end_id)
            ), found AS (
                SELECT l.participant, l.end_to_end_id, l.looked_up_on, l.key_value, l.key_type, l.account_id,
                       l.payer_id, l.looked_up_at, l.paid_at, k.account_id AS current_account
                FROM asked a
                JOIN payment_api.directory_lookups l
                  ON l.participant = a.participant AND l.end_to_end_id = a.end_to_end_id
                LEFT JOIN payment_api.directory_keys k ON k.key_value = l.key_value
                WHERE l.looked_up_on >= ?::date AND l.looked_up_at >= ?::timestamptz
            ), paid AS (
                UPDATE payment_api.directory_lookups d SET paid_at = statement_timestamp()
                FROM found f
                WHERE d.participant = f.participant AND d.end_to_end_id = f.end_to_end_id
                  AND d.looked_up_on = f.looked_up_on AND d.paid_at IS NULL
                  AND f.current_account IS NOT DISTINCT FROM f.account_id
                RETURNING d.participant, d.end_to_end_id
            )
            SELECT f.participant, f.end_to_end_id, f.key_value, f.key_type, f.account_id, f.payer_id, f.looked_up_at,
                   p.end_to_end_id IS NOT NULL AS first_payment, f.paid_at IS NOT NULL AS paid_before,
                   f.current_account IS NOT DISTINCT FROM f.account_id AS key_unmoved
            FROM found f
            LEFT JOIN paid p ON p.participant = f.participant AND p.end_to_end_id = f.end_to_end_id
            """;

    private final JdbcTemplate jdbc;

    public JdbcLookupStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void lookUp(
            Set<BucketId> buckets,
            Map<BucketId, Double> refunds,
            Map<BucketId, Double> fresh,
            Collection<PixKey> keys,
            Decision decide) {
        Check.that(buckets.containsAll(refunds.keySet()), "a refunded bucket is locked");
        jdbc.execute((ConnectionCallback<Void>) connection -> Transactions.run(connection, tx -> {
            List<BucketId> ordered = buckets.stream().sorted(ORDER).toList();
            Map<BucketId, TokenBucket> levels = new HashMap<>(ordered.size() * 2);
            Instant now = lockBuckets(tx, ordered, fresh, levels);
            for (Map.Entry<BucketId, Double> refund : refunds.entrySet()) {
                TokenBucket level = levels.get(refund.getKey());
                // A refund may lift a bucket above its burst: the next refill caps it (TokenBucket.at).
                levels.put(refund.getKey(), new TokenBucket(level.tokens() + refund.getValue(), level.at()));
            }
            Map<PixKey, KeyEntry> found = new HashMap<>(keys.size() * 2);
            if (!keys.isEmpty()) {
                JdbcKeyStore.findAll(tx, keys, found);
            }
            Decided decided = decide.decide(now, levels, found);
            writeBuckets(tx, ordered, decided.levels(), levels);
            if (!decided.reserved().isEmpty()) {
                reserve(tx, decided.reserved(), now);
            }
            return null;
        }));
    }

    private static Instant lockBuckets(
            Connection tx, List<BucketId> ordered, Map<BucketId, Double> fresh, Map<BucketId, TokenBucket> into)
            throws SQLException {
        int n = ordered.size();
        String[] participants = new String[n];
        String[] payers = new String[n];
        Double[] tokens = new Double[n];
        for (int i = 0; i < n; i++) {
            BucketId bucket = ordered.get(i);
            participants[i] = bucket.participant();
            payers[i] = stored(bucket.payerId());
            tokens[i] = fresh.get(bucket);
            Check.that(tokens[i] != null, "a bucket's fresh level is given: %s", bucket);
        }
        Instant now = null;
        try (PreparedStatement lock = tx.prepareStatement(LOCK_BUCKETS)) {
            lock.setArray(1, tx.createArrayOf("text", participants));
            lock.setArray(2, tx.createArrayOf("text", payers));
            lock.setArray(3, tx.createArrayOf("float8", tokens));
            try (ResultSet rows = lock.executeQuery()) {
                while (rows.next()) {
                    into.put(
                            new BucketId(rows.getString(1), payer(rows.getString(2))),
                            new TokenBucket(
                                    rows.getDouble(3), rows.getTimestamp(4).toInstant()));
                    now = rows.getTimestamp(5).toInstant();
                }
            }
        }
        if (now == null) {
            now = clock(tx);
        }
        Check.that(into.size() == n, "every bucket locked: %d of %d", into.size(), n);
        return now;
    }

    private static void writeBuckets(
            Connection tx,
            List<BucketId> ordered,
            Map<BucketId, TokenBucket> decided,
            Map<BucketId, TokenBucket> locked)
            throws SQLException {
        int n = ordered.size();
        String[] participants = new String[n];
        String[] payers = new String[n];
        Double[] tokens = new Double[n];
        Timestamp[] at = new Timestamp[n];
        for (int i = 0; i < n; i++) {
            BucketId bucket = ordered.get(i);
            TokenBucket level = decided.getOrDefault(bucket, locked.get(bucket));
            participants[i] = bucket.participant();
            payers[i] = stored(bucket.payerId());
            tokens[i] = level.tokens();
            at[i] = Timestamp.from(level.at());
        }
        try (PreparedStatement write = tx.prepareStatement(WRITE_BUCKETS)) {
            write.setArray(1, tx.createArrayOf("text", participants));
            write.setArray(2, tx.createArrayOf("text", payers));
            write.setArray(3, tx.createArrayOf("float8", tokens));
            write.setArray(4, tx.createArrayOf("timestamptz", at));
            write.executeUpdate();
        }
    }

    private static void reserve(Connection tx, List<Reserved> reserved, Instant now) throws SQLException {
        int n = reserved.size();
        String[] participants = new String[n];
        String[] ids = new String[n];
        String[] keys = new String[n];
        String[] types = new String[n];
        UUID[] accounts = new UUID[n];
        String[] payers = new String[n];
        for (int i = 0; i < n; i++) {
            Reserved lookup = reserved.get(i);
            participants[i] = lookup.participant();
            ids[i] = lookup.endToEndId().value();
            keys[i] = lookup.key().value();
            types[i] = lookup.key().type().name();
            accounts[i] = lookup.account().toUuid();
            payers[i] = lookup.payerId();
        }
        try (PreparedStatement insert = tx.prepareStatement(RESERVE)) {
            insert.setTimestamp(1, Timestamp.from(now));
            insert.setObject(2, LocalDate.ofInstant(now, ZoneOffset.UTC));
            insert.setArray(3, tx.createArrayOf("text", participants));
            insert.setArray(4, tx.createArrayOf("text", ids));
            insert.setArray(5, tx.createArrayOf("text", keys));
            insert.setArray(6, tx.createArrayOf("text", types));
            insert.setArray(7, tx.createArrayOf("uuid", accounts));
            insert.setArray(8, tx.createArrayOf("text", payers));
            insert.executeUpdate();
        }
    }

    @Override
    public Levels levels(Set<BucketId> buckets) {
        return jdbc.execute((ConnectionCallback<Levels>) connection -> {
            Map<BucketId, TokenBucket> stored = new LinkedHashMap<>();
            String[] participants = buckets.stream().map(BucketId::participant).toArray(String[]::new);
            String[] payers =
                    buckets.stream().map(bucket -> stored(bucket.payerId())).toArray(String[]::new);
            try (PreparedStatement select = connection.prepareStatement("""
                    SELECT b.participant, b.payer_id, b.tokens, b.refilled_at
                    FROM payment_api.directory_buckets b
                    JOIN unnest(?::text[], ?::text[]) AS a(participant, payer_id)
                      ON a.participant = b.participant AND a.payer_id = b.payer_id
                    """)) {
                select.setArray(1, connection.createArrayOf("text", participants));
                select.setArray(2, connection.createArrayOf("text", payers));
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        stored.put(
                                new BucketId(rows.getString(1), payer(rows.getString(2))),
                                new TokenBucket(
                                        rows.getDouble(3), rows.getTimestamp(4).toInstant()));
                    }
                }
            }
            return new Levels(clock(connection), stored);
        });
    }

    @Override
    public Map<Naming, Found> pay(Collection<Naming> namings, Instant since) {
        return jdbc.execute((ConnectionCallback<Map<Naming, Found>>) connection -> {
            Map<Naming, Found> found = new HashMap<>(namings.size() * 2);
            try (PreparedStatement pay = connection.prepareStatement(PAY)) {
                pay.setArray(
                        1,
                        connection.createArrayOf(
                                "text",
                                namings.stream().map(Naming::participant).toArray(String[]::new)));
                pay.setArray(
                        2,
                        connection.createArrayOf(
                                "text",
                                namings.stream()
                                        .map(naming -> naming.endToEndId().value())
                                        .toArray(String[]::new)));
                pay.setObject(3, LocalDate.ofInstant(since, ZoneOffset.UTC));
                pay.setTimestamp(4, Timestamp.from(since));
                try (ResultSet rows = pay.executeQuery()) {
                    while (rows.next()) {
                        Reserved reserved = new Reserved(
                                rows.getString("participant"),
                                new PixId(rows.getString("end_to_end_id")),
                                new PixKey(KeyType.valueOf(rows.getString("key_type")), rows.getString("key_value")),
                                Id128.fromUuid(rows.getObject("account_id", UUID.class)),
                                rows.getString("payer_id"),
                                rows.getTimestamp("looked_up_at").toInstant());
                        found.put(
                                new Naming(reserved.participant(), reserved.endToEndId()),
                                new Found(
                                        reserved,
                                        rows.getBoolean("first_payment"),
                                        rows.getBoolean("paid_before"),
                                        rows.getBoolean("key_unmoved")));
                    }
                }
            }
            return found;
        });
    }

    private static Instant clock(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT statement_timestamp()");
                ResultSet row = select.executeQuery()) {
            Check.that(row.next(), "the store answers its clock");
            return row.getTimestamp(1).toInstant();
        }
    }

    private static String stored(String payerId) {
        return payerId == null ? BANKS_OWN : payerId;
    }

    private static String payer(String stored) {
        return BANKS_OWN.equals(stored) ? null : stored;
    }
}
