package io.pagora.payments.api.adapter.jdbc;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.directory.ClaimStore;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.Claim;
import io.pagora.payments.api.domain.directory.KeyEntry;
import io.pagora.payments.api.domain.directory.KeyRules;
import io.pagora.payments.api.domain.directory.KeyType;
import io.pagora.payments.api.domain.directory.PixKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Claims in {@code payment_api.directory_claims}, beside the keys they move: a claim is opened with its key's row
 * locked, and a completion moves the key in the same transaction as it closes the claim, so a key and its claims never
 * disagree.
 */
public final class JdbcClaimStore implements ClaimStore {

    private static final String COLUMNS = "claim_id, claim_type, key_value, key_type, claimer, claimer_account,"
            + " holder_name, holder_tax_id, donor, donor_account, status, resolution, opened_at, resolve_by, resolved_at";

    private final JdbcTemplate jdbc;

    public JdbcClaimStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Opened open(PixKey key, String claimer, String requestKey, Function<KeyEntry, Decision> decide) {
        return jdbc.execute((ConnectionCallback<Opened>) connection -> Transactions.run(connection, tx -> {
            List<Claim> earlier = select(tx, "claimer = ? AND request_key = ?", claimer, requestKey);
            if (!earlier.isEmpty()) {
                return new Opened.Done(earlier.getFirst(), false);
            }
            KeyEntry current = lockedKey(tx, key.value());
            Decision decision = decide.apply(current);
            if (decision.refusal() != null) {
                return new Opened.Refused(decision.refusal());
            }
            Claim claim = decision.claim();
            try (PreparedStatement insert = tx.prepareStatement(
                    "INSERT INTO payment_api.directory_claims (" + COLUMNS
                            + ", request_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
                bind(insert, claim);
                insert.setString(16, requestKey);
                if (insert.executeUpdate() == 1) {
                    return new Opened.Done(claim, true);
                }
            }
            List<Claim> open = select(tx, "key_value = ? AND status = 'OPEN'", key.value());
            if (!open.isEmpty()) {
                return new Opened.Refused(Refusal.ofField(
                        RefusalReason.CLAIM_ALREADY_OPEN,
                        "key",
                        "the key has an open claim already (" + open.getFirst().id() + "): one at a time"));
            }
            // The claimer's same request, committed meanwhile by another call.
            return new Opened.Done(
                    select(tx, "claimer = ? AND request_key = ?", claimer, requestKey)
                            .getFirst(),
                    false);
        }));
    }

    @Override
    public Optional<Claim> find(UUID id) {
        return jdbc.execute((ConnectionCallback<Optional<Claim>>)
                connection -> select(connection, "claim_id = ?", id).stream().findFirst());
    }

    @Override
    public List<Claim> of(String participant, boolean asDonor, Claim.Status status, int limit) {
        return jdbc.execute((ConnectionCallback<List<Claim>>) connection -> select(
                connection,
                (asDonor ? "donor" : "claimer") + " = ? AND status = ? ORDER BY opened_at, claim_id LIMIT " + limit,
                participant,
                status.name()));
    }

    @Override
    public Claim resolve(UUID id, Function<Claim, Claim.Resolution> how, Instant now) {
        return jdbc.execute((ConnectionCallback<Claim>) connection -> Transactions.run(connection, tx -> {
            Claim claim = select(tx, "claim_id = ? FOR UPDATE", id).getFirst();
            if (claim.status() != Claim.Status.OPEN) {
                return claim;
            }
            Claim ended = claim.resolved(how.apply(claim), now);
            if (ended.status() == Claim.Status.COMPLETED) {
                ended = moveKey(tx, claim, ended, now);
            }
            try (PreparedStatement update = tx.prepareStatement("UPDATE payment_api.directory_claims"
                    + " SET status = ?, resolution = ?, resolved_at = ? WHERE claim_id = ? AND status = 'OPEN'")) {
                update.setString(1, ended.status().name());
                update.setString(2, ended.resolution().name());
                update.setTimestamp(3, Timestamp.from(now));
                update.setObject(4, id);
                update.executeUpdate();
            }
            return ended;
        }));
    }

    /** Moves the key to the claimer's account if it is still the donor's and that account has room for it. */
    private static Claim moveKey(Connection tx, Claim claim, Claim completed, Instant now) throws SQLException {
        try (PreparedStatement lock =
                tx.prepareStatement("SELECT pg_advisory_xact_lock(hashtextextended(?::text, 0))")) {
            // The lock JdbcKeyStore takes for an account's keys: the count below holds until this transaction ends.
            lock.setString(1, claim.claimerAccount().toString());
            lock.execute();
        }
        int held;
        try (PreparedStatement count =
                tx.prepareStatement("SELECT count(*) FROM payment_api.directory_keys WHERE account_id = ?")) {
            count.setObject(1, claim.claimerAccount().toUuid());
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                held = rows.getInt(1);
            }
        }
        if (held >= KeyRules.keysMax(claim.holderTaxId())) {
            return claim.resolved(Claim.Resolution.CLAIMER_LIMIT_REACHED, now);
        }
        try (PreparedStatement move = tx.prepareStatement("UPDATE payment_api.directory_keys SET account_id = ?,"
                + " participant = ?, holder_name = ?, holder_tax_id = ?, created_at = ?, request_key = NULL"
                + " WHERE key_value = ? AND account_id = ?")) {
            move.setObject(1, claim.claimerAccount().toUuid());
            move.setString(2, claim.claimer());
            move.setString(3, claim.holderName());
            move.setString(4, claim.holderTaxId());
            move.setTimestamp(5, Timestamp.from(now));
            move.setString(6, claim.key().value());
            move.setObject(7, claim.donorAccount().toUuid());
            return move.executeUpdate() == 1 ? completed : claim.resolved(Claim.Resolution.KEY_CHANGED, now);
        }
    }

    @Override
    public List<UUID> due(Instant now, int limit) {
        return jdbc.queryForList(
                "SELECT claim_id FROM payment_api.directory_claims WHERE status = 'OPEN' AND resolve_by <= ?"
                        + " ORDER BY resolve_by LIMIT " + limit,
                UUID.class,
                Timestamp.from(now));
    }

    private static KeyEntry lockedKey(Connection tx, String value) throws SQLException {
        try (PreparedStatement select = tx.prepareStatement("SELECT key_value, key_type, account_id, holder_name,"
                + " holder_tax_id, created_at FROM payment_api.directory_keys WHERE key_value = ? FOR UPDATE")) {
            select.setString(1, value);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? JdbcKeyStore.entry(rows) : null;
            }
        }
    }

    private static List<Claim> select(Connection connection, String where, Object... arguments) throws SQLException {
        List<Claim> found = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT " + COLUMNS + " FROM payment_api.directory_claims WHERE " + where)) {
            for (int i = 0; i < arguments.length; i++) {
                select.setObject(i + 1, arguments[i]);
            }
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    found.add(claim(rows));
                }
            }
        }
        return found;
    }

    private static void bind(PreparedStatement statement, Claim claim) throws SQLException {
        statement.setObject(1, claim.id());
        statement.setString(2, claim.type().name());
        statement.setString(3, claim.key().value());
        statement.setString(4, claim.key().type().name());
        statement.setString(5, claim.claimer());
        statement.setObject(6, claim.claimerAccount().toUuid());
        statement.setString(7, claim.holderName());
        statement.setString(8, claim.holderTaxId());
        statement.setString(9, claim.donor());
        statement.setObject(10, claim.donorAccount().toUuid());
        statement.setString(11, claim.status().name());
        statement.setString(
                12, claim.resolution() == null ? null : claim.resolution().name());
        statement.setTimestamp(13, Timestamp.from(claim.openedAt()));
        statement.setTimestamp(14, Timestamp.from(claim.resolveBy()));
        statement.setTimestamp(15, claim.resolvedAt() == null ? null : Timestamp.from(claim.resolvedAt()));
    }

    private static Claim claim(ResultSet row) throws SQLException {
        Timestamp resolvedAt = row.getTimestamp("resolved_at");
        String resolution = row.getString("resolution");
        return new Claim(
                row.getObject("claim_id", UUID.class),
                Claim.Type.valueOf(row.getString("claim_type")),
                new PixKey(KeyType.valueOf(row.getString("key_type")), row.getString("key_value")),
                row.getString("claimer"),
                Id128.fromUuid(row.getObject("claimer_account", UUID.class)),
                row.getString("holder_name"),
                row.getString("holder_tax_id"),
                row.getString("donor"),
                Id128.fromUuid(row.getObject("donor_account", UUID.class)),
                Claim.Status.valueOf(row.getString("status")),
                row.getTimestamp("opened_at").toInstant(),
                row.getTimestamp("resolve_by").toInstant(),
                resolvedAt == null ? null : resolvedAt.toInstant(),
                resolution == null ? null : Claim.Resolution.valueOf(resolution));
    }
}
