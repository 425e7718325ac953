package io.pagora.payments.api.adapter.jdbc;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.directory.KeyStore;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.KeyEntry;
import io.pagora.payments.api.domain.directory.KeyType;
import io.pagora.payments.api.domain.directory.PixKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The directory's keys in {@code payment_api.directory_keys}. A registration or a change locks its target account
 * (a transaction-scoped advisory lock on the account id) before it counts the account's keys, so two registrations
 * to one account never both pass its limit; the key's primary key keeps one key to one account.
 */
public final class JdbcKeyStore implements KeyStore {

    private static final String COLUMNS = "key_value, key_type, account_id, holder_name, holder_tax_id, created_at";
    private static final String LOCK_ACCOUNT = "SELECT pg_advisory_xact_lock(hashtextextended(?::text, 0))";

    private final JdbcTemplate jdbc;

    public JdbcKeyStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Registration register(
            KeyEntry entry, String participant, String requestKey, Function<List<KeyEntry>, Optional<Refusal>> rules) {
        return inTransaction(connection -> {
            lockAccount(connection, entry.account());
            Optional<KeyEntry> existing = find(connection, entry.key().value(), false);
            if (existing.isPresent()) {
                return new Registration.Existing(existing.get());
            }
            Optional<Refusal> refused = rules.apply(ofAccount(connection, entry.account()));
            if (refused.isPresent()) {
                return new Registration.Refused(refused.get());
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO payment_api.directory_keys ("
                    + COLUMNS + ", participant, request_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
                bind(insert, entry);
                insert.setString(7, participant);
                insert.setString(8, requestKey);
                if (insert.executeUpdate() == 1) {
                    return new Registration.Registered(entry);
                }
            }
            // Another account's registration of the same key won meanwhile (it locked another account).
            return new Registration.Existing(
                    find(connection, entry.key().value(), false).orElseThrow());
        });
    }

    @Override
    public Registration update(
            KeyEntry current, KeyEntry replacement, Function<List<KeyEntry>, Optional<Refusal>> rules) {
        return inTransaction(connection -> {
            lockAccount(connection, replacement.account());
            Optional<KeyEntry> now = find(connection, current.key().value(), true);
            if (now.isEmpty()) {
                return new Registration.Refused(Refusal.of(
                        RefusalReason.KEY_NOT_FOUND, "no key " + current.key().value() + " is registered"));
            }
            if (!now.get().sameAs(current)) {
                return new Registration.Existing(now.get());
            }
            Optional<Refusal> refused = rules.apply(ofAccount(connection, replacement.account()));
            if (refused.isPresent()) {
                return new Registration.Refused(refused.get());
            }
            try (PreparedStatement update = connection.prepareStatement("UPDATE payment_api.directory_keys"
                    + " SET account_id = ?, holder_name = ?, created_at = ? WHERE key_value = ?")) {
                update.setObject(1, replacement.account().toUuid());
                update.setString(2, replacement.holderName());
                update.setTimestamp(3, Timestamp.from(replacement.createdAt()));
                update.setString(4, replacement.key().value());
                update.executeUpdate();
            }
            return new Registration.Registered(replacement);
        });
    }

    @Override
    public Optional<KeyEntry> madeFor(String participant, String requestKey) {
        List<KeyEntry> found = jdbc.query(
                "SELECT " + COLUMNS + " FROM payment_api.directory_keys WHERE participant = ? AND request_key = ?",
                (row, n) -> entry(row),
                participant,
                requestKey);
        return found.stream().findFirst();
    }

    @Override
    public Optional<KeyEntry> find(PixKey key) {
        return jdbc.execute(
                (ConnectionCallback<Optional<KeyEntry>>) connection -> find(connection, key.value(), false));
    }

    @Override
    public Map<PixKey, KeyEntry> findAll(Collection<PixKey> keys) {
        Map<PixKey, KeyEntry> found = new HashMap<>(keys.size() * 2);
        if (keys.isEmpty()) {
            return found;
        }
        jdbc.execute((ConnectionCallback<Void>) connection -> {
            findAll(connection, keys, found);
            return null;
        });
        return found;
    }

    /** Every key of {@code keys} the directory holds, into {@code found}: one statement. */
    static void findAll(Connection connection, Collection<PixKey> keys, Map<PixKey, KeyEntry> found)
            throws SQLException {
        String[] values = keys.stream().map(PixKey::value).toArray(String[]::new);
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT " + COLUMNS + " FROM payment_api.directory_keys WHERE key_value = ANY (?::text[])")) {
            select.setArray(1, connection.createArrayOf("text", values));
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    KeyEntry entry = entry(rows);
                    found.put(entry.key(), entry);
                }
            }
        }
    }

    @Override
    public List<KeyEntry> ofAccount(Id128 account) {
        return jdbc.execute((ConnectionCallback<List<KeyEntry>>) connection -> ofAccount(connection, account));
    }

    @Override
    public boolean delete(PixKey key, Id128 account) {
        return jdbc.update(
                        "DELETE FROM payment_api.directory_keys WHERE key_value = ? AND account_id = ?",
                        key.value(),
                        account.toUuid())
                == 1;
    }

    private static Optional<KeyEntry> find(Connection connection, String value, boolean forUpdate) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS
                + " FROM payment_api.directory_keys WHERE key_value = ?" + (forUpdate ? " FOR UPDATE" : ""))) {
            select.setString(1, value);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(entry(rows)) : Optional.empty();
            }
        }
    }

    private static List<KeyEntry> ofAccount(Connection connection, Id128 account) throws SQLException {
        List<KeyEntry> keys = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS
                + " FROM payment_api.directory_keys WHERE account_id = ? ORDER BY created_at, key_value")) {
            select.setObject(1, account.toUuid());
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    keys.add(entry(rows));
                }
            }
        }
        return keys;
    }

    private static void lockAccount(Connection connection, Id128 account) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement(LOCK_ACCOUNT)) {
            lock.setString(1, account.toString());
            lock.execute();
        }
    }

    private static void bind(PreparedStatement statement, KeyEntry entry) throws SQLException {
        statement.setString(1, entry.key().value());
        statement.setString(2, entry.key().type().name());
        statement.setObject(3, entry.account().toUuid());
        statement.setString(4, entry.holderName());
        statement.setString(5, entry.holderTaxId());
        statement.setTimestamp(6, Timestamp.from(entry.createdAt()));
    }

    static KeyEntry entry(ResultSet row) throws SQLException {
        return new KeyEntry(
                new PixKey(KeyType.valueOf(row.getString("key_type")), row.getString("key_value")),
                Id128.fromUuid(row.getObject("account_id", UUID.class)),
                row.getString("holder_name"),
                row.getString("holder_tax_id"),
                row.getTimestamp("created_at").toInstant());
    }

    /** One transaction on one connection: committed if {@code work} returns, rolled back if it throws. */
    private <T> T inTransaction(SqlWork<T> work) {
        return jdbc.execute((ConnectionCallback<T>) connection -> Transactions.run(connection, work::apply));
    }

    @FunctionalInterface
    interface SqlWork<T> {
        T apply(Connection connection) throws SQLException;
    }
}
