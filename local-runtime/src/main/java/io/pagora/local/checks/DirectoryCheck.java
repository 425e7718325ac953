package io.pagora.local.checks;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Ledger;
import io.pagora.local.servers.LocalPostgres;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.access.Caller;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The key directory reconciled with the ledger (docs/directory.md): every key points to an account the ledger holds,
 * a customer account, of the bank that registered the key. The ledger is asked, never the directory's word. A
 * directory with no key fails: the demo and the bench register one per seeded customer, so an empty one means the
 * check saw nothing.
 */
public final class DirectoryCheck {

    /** Keys read at most: a bound on the check's memory (the demo and the bench hold a few thousand). */
    static final int KEYS_MAX = 5_000_000;

    private DirectoryCheck() {}

    /** A key as the directory holds it. */
    record Key(String key, Id128 account, String participant) {}

    public static InvariantChecks.Verdict run(DataSource database, String schema, Ledger ledger) throws SQLException {
        List<Key> keys = read(database, schema);
        List<String> problems = new ArrayList<>();
        Map<Id128, Account> found = new HashMap<>(keys.size() * 2);
        List<Id128> ids = keys.stream().map(Key::account).distinct().toList();
        for (int from = 0; from < ids.size(); from += Ledger.BATCH_SIZE_MAX) {
            for (Account account :
                    ledger.lookupAccounts(ids.subList(from, Math.min(ids.size(), from + Ledger.BATCH_SIZE_MAX)))) {
                found.put(account.id(), account);
            }
        }
        for (Key key : keys) {
            String bank = ChartOfAccounts.bankOf(key.account())
                    .map(id -> Caller.BANK_PREFIX + id)
                    .orElse("no bank");
            if (!found.containsKey(key.account())) {
                problems.add(key.key() + " points to account " + key.account() + ", which the ledger does not hold");
            } else if (!ChartOfAccounts.isCustomer(key.account())) {
                problems.add(key.key() + " points to account " + key.account() + ", not a customer account");
            } else if (!bank.equals(key.participant())) {
                problems.add(key.key() + " was registered by " + key.participant() + " for an account of " + bank);
            }
        }
        if (keys.isEmpty()) {
            problems.add("the directory holds no key: seeding registers one per customer, so the check saw nothing");
        }
        List<String> listed = new ArrayList<>(problems.subList(0, Math.min(problems.size(), 10)));
        if (problems.size() > 10) {
            listed.add("… and " + (problems.size() - 10) + " more");
        }
        return new InvariantChecks.Verdict(
                "(e) key directory = ledger",
                problems.isEmpty(),
                keys.size() + " keys, each pointing to an open customer account of the bank that registered it",
                List.copyOf(listed));
    }

    private static List<Key> read(DataSource database, String schema) throws SQLException {
        String sql = "SELECT key_value, account_id, participant FROM " + LocalPostgres.quoteIdentifier(schema)
                + ".directory_keys ORDER BY key_value LIMIT " + (KEYS_MAX + 1);
        List<Key> keys = new ArrayList<>();
        try (Connection connection = database.getConnection();
                PreparedStatement query = connection.prepareStatement(sql)) {
            query.setFetchSize(10_000);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    keys.add(new Key(
                            rows.getString(1), Id128.fromUuid(rows.getObject(2, UUID.class)), rows.getString(3)));
                }
            }
        }
        if (keys.size() > KEYS_MAX) {
            throw new IllegalStateException("more than " + KEYS_MAX + " keys: the check reads at most that many");
        }
        return keys;
    }
}
