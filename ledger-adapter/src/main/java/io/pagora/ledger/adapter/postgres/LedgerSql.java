package io.pagora.ledger.adapter.postgres;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferResult;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Every statement of the PostgreSQL ledger. Each one takes whole arrays ({@code = ANY(?)},
 * {@code unnest(?)}), so a batch costs the same number of round trips at 1 transfer or 8,189.
 *
 * <p>Over 400 lines on purpose: the ledger's whole SQL in one place, each statement beside the column list it shares
 * with the others, so a schema change is read and made in one file.
 */
final class LedgerSql {

    private static final String ACCOUNT_COLUMNS = "id, ledger, code, flags, debits_pending, debits_posted, "
            + "credits_pending, credits_posted, user_data_128, user_data_64, user_data_32, \"timestamp\"";
    private static final String TRANSFER_COLUMNS = "id, debit_account_id, credit_account_id, amount, pending_id, "
            + "user_data_128, user_data_64, user_data_32, timeout, ledger, code, flags, \"timestamp\", pending_status, expires_at";
    private static final String OPEN_PENDING = "pending_status = 1 AND expires_at IS NOT NULL";

    /** Sets this transaction's deadlines and reads the ledger clock (ns), in one round trip. */
    long begin(Connection connection, PostgresLedger.Config config) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT set_config('statement_timeout', ?, true), set_config('lock_timeout', ?, true), "
                        + "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint * 1000")) {
            statement.setString(1, config.statementTimeout().toMillis() + "ms");
            statement.setString(2, config.lockTimeout().toMillis() + "ms");
            try (ResultSet rows = statement.executeQuery()) {
                Check.that(rows.next(), "the clock query answers one row");
                return rows.getLong(3);
            }
        }
    }

    /**
     * Hands {@code events} timestamps to this transaction: the last of them is returned, the first is
     * {@code last - events + 1}, all above every timestamp handed out before and at least {@code atLeastNs}. The
     * clock row stays locked until this transaction ends, so a later batch waits and stamps after it: timestamps
     * are distinct and follow commit order (V3__ledger_clock.sql). Take it last, after the account locks, so
     * no lock is ever awaited while it is held.
     */
    long stamp(Connection connection, int events, long atLeastNs) throws SQLException {
        Check.that(events > 0, "a stamp covers at least one event: %d", events);
        try (PreparedStatement statement = connection.prepareStatement(
                "UPDATE ledger.clock SET last_timestamp = GREATEST(last_timestamp + ?, ?) RETURNING last_timestamp")) {
            statement.setLong(1, events);
            statement.setLong(2, atLeastNs);
            try (ResultSet rows = statement.executeQuery()) {
                Check.that(rows.next(), "the ledger clock has its row (V3__ledger_clock.sql)");
                long lastNs = rows.getLong(1);
                Check.that(!rows.next(), "the ledger clock has one row");
                return lastNs;
            }
        }
    }

    Map<Id128, Account> selectAccounts(Connection connection, Set<Id128> ids, boolean forUpdate) throws SQLException {
        String query = "SELECT " + ACCOUNT_COLUMNS + " FROM ledger.accounts WHERE id = ANY(?) ORDER BY id"
                + (forUpdate ? " FOR UPDATE" : "");
        Map<Id128, Account> accounts = new HashMap<>(ids.size() * 2);
        try (PreparedStatement statement = connection.prepareStatement(query)) {
            statement.setArray(1, uuids(connection, ids));
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    Account account = account(rows);
                    accounts.put(account.id(), account);
                }
            }
        }
        return accounts;
    }

    /**
     * Locks the accounts in id order — the same total order in every batch, so batches that share
     * accounts wait for each other instead of deadlocking. Missing ids simply are not returned.
     */
    Map<Id128, AccountRow> lockAccounts(Connection connection, Set<Id128> ids) throws SQLException {
        Map<Id128, AccountRow> rows = new HashMap<>(ids.size() * 2);
        for (Account account : selectAccounts(connection, ids, true).values()) {
            rows.put(account.id(), new AccountRow(account));
        }
        return rows;
    }

    Map<Id128, StoredTransfer> selectTransfers(Connection connection, Set<Id128> ids) throws SQLException {
        Map<Id128, StoredTransfer> transfers = new HashMap<>(ids.size() * 2);
        if (ids.isEmpty()) {
            return transfers;
        }
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT " + TRANSFER_COLUMNS + " FROM ledger.transfers WHERE id = ANY(?)")) {
            statement.setArray(1, uuids(connection, ids));
            readTransfers(statement, transfers);
        }
        return transfers;
    }

    /** get_account_transfers: one side's or both sides' transfers after {@code timestampAfter}, in timestamp order. */
    List<Transfer> accountTransfers(
            Connection connection, Id128 account, Ledger.Sides sides, long timestampAfter, int limit)
            throws SQLException {
        String debits = "(SELECT " + TRANSFER_COLUMNS + " FROM ledger.transfers WHERE debit_account_id = ?"
                + " AND \"timestamp\" > ? ORDER BY \"timestamp\" LIMIT ?)";
        String credits = "(SELECT " + TRANSFER_COLUMNS + " FROM ledger.transfers WHERE credit_account_id = ?"
                + " AND \"timestamp\" > ? ORDER BY \"timestamp\" LIMIT ?)";
        String query = switch (sides) {
            case DEBITS -> debits;
            case CREDITS -> credits;
            case BOTH -> debits + " UNION ALL " + credits + " ORDER BY \"timestamp\" LIMIT ?";
        };
        Map<Id128, StoredTransfer> found = new LinkedHashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(query)) {
            int parameter = 1;
            int branches = sides == Ledger.Sides.BOTH ? 2 : 1;
            for (int branch = 0; branch < branches; branch++) {
                statement.setObject(parameter++, account.toUuid());
                statement.setLong(parameter++, timestampAfter);
                statement.setInt(parameter++, limit);
            }
            if (sides == Ledger.Sides.BOTH) {
                statement.setInt(parameter, limit);
            }
            readTransfers(statement, found);
        }
        return found.values().stream().map(stored -> stored.transfer).toList();
    }

    /** Open pending transfers of these accounts whose timeout has passed at {@code nowNs}. */
    List<StoredTransfer> selectDuePending(Connection connection, Set<Id128> accountIds, long nowNs)
            throws SQLException {
        if (accountIds.isEmpty()) {
            return List.of();
        }
        Map<Id128, StoredTransfer> due = new LinkedHashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT " + TRANSFER_COLUMNS + " FROM ledger.transfers WHERE " + OPEN_PENDING
                        + " AND debit_account_id = ANY(?) AND expires_at <= ?"
                        + " UNION SELECT " + TRANSFER_COLUMNS + " FROM ledger.transfers WHERE " + OPEN_PENDING
                        + " AND credit_account_id = ANY(?) AND expires_at <= ?")) {
            Array ids = uuids(connection, accountIds);
            statement.setArray(1, ids);
            statement.setLong(2, nowNs);
            statement.setArray(3, ids);
            statement.setLong(4, nowNs);
            readTransfers(statement, due);
        }
        return new ArrayList<>(due.values());
    }

    /** The sweeper's scan: the oldest due pending transfers, at most {@code limit}. */
    List<StoredTransfer> selectDuePending(Connection connection, int limit, long nowNs) throws SQLException {
        Map<Id128, StoredTransfer> due = new LinkedHashMap<>();
        try (PreparedStatement statement =
                connection.prepareStatement("SELECT " + TRANSFER_COLUMNS + " FROM ledger.transfers WHERE "
                        + OPEN_PENDING + " AND expires_at <= ? ORDER BY expires_at LIMIT ?")) {
            statement.setLong(1, nowNs);
            statement.setInt(2, limit);
            readTransfers(statement, due);
        }
        return new ArrayList<>(due.values());
    }

    Set<Id128> selectFailedIds(Connection connection, Set<Id128> ids) throws SQLException {
        Set<Id128> failed = new HashSet<>();
        try (PreparedStatement statement =
                connection.prepareStatement("SELECT id FROM ledger.failed_transfer_ids WHERE id = ANY(?)")) {
            statement.setArray(1, uuids(connection, ids));
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    failed.add(Id128.fromUuid(rows.getObject(1, UUID.class)));
                }
            }
        }
        return failed;
    }

    void insertAccounts(Connection connection, List<Account> accounts) throws SQLException {
        if (accounts.isEmpty()) {
            return;
        }
        int n = accounts.size();
        UUID[] ids = new UUID[n];
        UUID[] userData128 = new UUID[n];
        Integer[] ledger = new Integer[n];
        Integer[] code = new Integer[n];
        Integer[] flags = new Integer[n];
        Long[] userData64 = new Long[n];
        Integer[] userData32 = new Integer[n];
        Long[] timestamp = new Long[n];
        for (int i = 0; i < n; i++) {
            Account a = accounts.get(i);
            ids[i] = a.id().toUuid();
            ledger[i] = a.ledger();
            code[i] = a.code();
            flags[i] = a.flags();
            userData128[i] = a.userData128().toUuid();
            userData64[i] = a.userData64();
            userData32[i] = a.userData32();
            timestamp[i] = a.timestamp();
        }
        try (PreparedStatement statement = connection.prepareStatement(
                "INSERT INTO ledger.accounts (id, ledger, code, flags, user_data_128, user_data_64, user_data_32, \"timestamp\") "
                        + "SELECT * FROM unnest(?::uuid[], ?::int[], ?::int[], ?::int[], ?::uuid[], ?::bigint[], ?::int[], ?::bigint[])")) {
            statement.setArray(1, connection.createArrayOf("uuid", ids));
            statement.setArray(2, connection.createArrayOf("int4", ledger));
            statement.setArray(3, connection.createArrayOf("int4", code));
            statement.setArray(4, connection.createArrayOf("int4", flags));
            statement.setArray(5, connection.createArrayOf("uuid", userData128));
            statement.setArray(6, connection.createArrayOf("int8", userData64));
            statement.setArray(7, connection.createArrayOf("int4", userData32));
            statement.setArray(8, connection.createArrayOf("int8", timestamp));
            Check.that(statement.executeUpdate() == n, "every new account inserted");
        }
    }

    void insertTransfers(Connection connection, List<StoredTransfer> created) throws SQLException {
        if (created.isEmpty()) {
            return;
        }
        int n = created.size();
        UUID[] ids = new UUID[n];
        UUID[] debits = new UUID[n];
        UUID[] credits = new UUID[n];
        Long[] amounts = new Long[n];
        UUID[] pendingIds = new UUID[n];
        UUID[] userData128 = new UUID[n];
        Long[] userData64 = new Long[n];
        Integer[] userData32 = new Integer[n];
        Integer[] timeouts = new Integer[n];
        Integer[] ledgers = new Integer[n];
        Integer[] codes = new Integer[n];
        Integer[] flags = new Integer[n];
        Long[] timestamps = new Long[n];
        Short[] statuses = new Short[n];
        Long[] expiresAt = new Long[n];
        for (int i = 0; i < n; i++) {
            StoredTransfer row = created.get(i);
            Transfer t = row.transfer;
            ids[i] = t.id().toUuid();
            debits[i] = t.debitAccountId().toUuid();
            credits[i] = t.creditAccountId().toUuid();
            amounts[i] = t.amount();
            pendingIds[i] = t.pendingId().toUuid();
            userData128[i] = t.userData128().toUuid();
            userData64[i] = t.userData64();
            userData32[i] = t.userData32();
            timeouts[i] = t.timeoutSeconds();
            ledgers[i] = t.ledger();
            codes[i] = t.code();
            flags[i] = t.flags();
            timestamps[i] = t.timestamp();
            statuses[i] = row.status == StoredTransfer.NOT_PENDING ? null : row.status;
            expiresAt[i] = row.expiresAtNs == StoredTransfer.NEVER ? null : row.expiresAtNs;
        }
        try (PreparedStatement statement = connection.prepareStatement("INSERT INTO ledger.transfers ("
                + TRANSFER_COLUMNS + ") SELECT * FROM unnest(?::uuid[], ?::uuid[], ?::uuid[], "
                + "?::bigint[], ?::uuid[], ?::uuid[], ?::bigint[], ?::int[], ?::int[], ?::int[], ?::int[], ?::int[], "
                + "?::bigint[], ?::smallint[], ?::bigint[])")) {
            int p = 1;
            statement.setArray(p++, connection.createArrayOf("uuid", ids));
            statement.setArray(p++, connection.createArrayOf("uuid", debits));
            statement.setArray(p++, connection.createArrayOf("uuid", credits));
            statement.setArray(p++, connection.createArrayOf("int8", amounts));
            statement.setArray(p++, connection.createArrayOf("uuid", pendingIds));
            statement.setArray(p++, connection.createArrayOf("uuid", userData128));
            statement.setArray(p++, connection.createArrayOf("int8", userData64));
            statement.setArray(p++, connection.createArrayOf("int4", userData32));
            statement.setArray(p++, connection.createArrayOf("int4", timeouts));
            statement.setArray(p++, connection.createArrayOf("int4", ledgers));
            statement.setArray(p++, connection.createArrayOf("int4", codes));
            statement.setArray(p++, connection.createArrayOf("int4", flags));
            statement.setArray(p++, connection.createArrayOf("int8", timestamps));
            statement.setArray(p++, connection.createArrayOf("int2", statuses));
            statement.setArray(p, connection.createArrayOf("int8", expiresAt));
            Check.that(statement.executeUpdate() == n, "every new transfer inserted");
        }
    }

    /** Writes the absolute balances of the changed (locked) accounts. */
    void updateBalances(Connection connection, Collection<AccountRow> accounts) throws SQLException {
        List<AccountRow> dirty = accounts.stream().filter(row -> row.dirty).toList();
        if (dirty.isEmpty()) {
            return;
        }
        int n = dirty.size();
        UUID[] ids = new UUID[n];
        Long[] debitsPending = new Long[n];
        Long[] debitsPosted = new Long[n];
        Long[] creditsPending = new Long[n];
        Long[] creditsPosted = new Long[n];
        for (int i = 0; i < n; i++) {
            AccountRow row = dirty.get(i);
            ids[i] = row.id.toUuid();
            debitsPending[i] = row.debitsPending;
            debitsPosted[i] = row.debitsPosted;
            creditsPending[i] = row.creditsPending;
            creditsPosted[i] = row.creditsPosted;
        }
        try (PreparedStatement statement = connection.prepareStatement(
                "UPDATE ledger.accounts a SET debits_pending = v.dp, debits_posted = v.dpo, credits_pending = v.cp, "
                        + "credits_posted = v.cpo FROM unnest(?::uuid[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[]) "
                        + "AS v(id, dp, dpo, cp, cpo) WHERE a.id = v.id")) {
            statement.setArray(1, connection.createArrayOf("uuid", ids));
            statement.setArray(2, connection.createArrayOf("int8", debitsPending));
            statement.setArray(3, connection.createArrayOf("int8", debitsPosted));
            statement.setArray(4, connection.createArrayOf("int8", creditsPending));
            statement.setArray(5, connection.createArrayOf("int8", creditsPosted));
            Check.that(statement.executeUpdate() == n, "every changed account updated");
        }
    }

    /** Moves pending transfers out of the pending state; only ever from pending (status 1). */
    void updatePendingStatus(Connection connection, List<StoredTransfer> resolved, List<StoredTransfer> expired)
            throws SQLException {
        Map<Id128, Short> statusById = new TreeMap<>();
        expired.forEach(row -> statusById.put(row.transfer.id(), row.status));
        resolved.forEach(row -> statusById.put(row.transfer.id(), row.status));
        if (statusById.isEmpty()) {
            return;
        }
        UUID[] ids = new UUID[statusById.size()];
        Short[] statuses = new Short[statusById.size()];
        int i = 0;
        for (Map.Entry<Id128, Short> entry : statusById.entrySet()) {
            Check.that(entry.getValue() > StoredTransfer.PENDING, "a pending transfer only leaves the pending state");
            ids[i] = entry.getKey().toUuid();
            statuses[i++] = entry.getValue();
        }
        try (PreparedStatement statement = connection.prepareStatement(
                "UPDATE ledger.transfers t SET pending_status = v.s FROM unnest(?::uuid[], ?::smallint[]) AS v(id, s) "
                        + "WHERE t.id = v.id AND t.pending_status = 1")) {
            statement.setArray(1, connection.createArrayOf("uuid", ids));
            statement.setArray(2, connection.createArrayOf("int2", statuses));
            Check.that(statement.executeUpdate() == ids.length, "every resolved pending transfer was pending");
        }
    }

    void insertFailedIds(Connection connection, Map<Id128, TransferResult> failed) throws SQLException {
        if (failed.isEmpty()) {
            return;
        }
        UUID[] ids = new UUID[failed.size()];
        Short[] results = new Short[failed.size()];
        int i = 0;
        for (Map.Entry<Id128, TransferResult> entry : failed.entrySet()) {
            ids[i] = entry.getKey().toUuid();
            results[i++] = (short) entry.getValue().ordinal();
        }
        try (PreparedStatement statement = connection.prepareStatement(
                "INSERT INTO ledger.failed_transfer_ids (id, result) SELECT * FROM unnest(?::uuid[], ?::smallint[]) "
                        + "ON CONFLICT (id) DO NOTHING")) {
            statement.setArray(1, connection.createArrayOf("uuid", ids));
            statement.setArray(2, connection.createArrayOf("int2", results));
            statement.executeUpdate();
        }
    }

    /** Accounts in request order, with due-but-unswept pending amounts already released. */
    List<Account> lookupAccounts(Connection connection, List<Id128> ids, long nowNs) throws SQLException {
        Map<Id128, Account> found = new HashMap<>(ids.size() * 2);
        try (PreparedStatement statement = connection.prepareStatement("SELECT a.id, a.ledger, a.code, a.flags, "
                + "a.debits_pending - COALESCE((SELECT sum(t.amount) FROM ledger.transfers t WHERE t.debit_account_id = a.id"
                + " AND t.pending_status = 1 AND t.expires_at IS NOT NULL AND t.expires_at <= ?), 0)::bigint, "
                + "a.debits_posted, "
                + "a.credits_pending - COALESCE((SELECT sum(t.amount) FROM ledger.transfers t WHERE t.credit_account_id = a.id"
                + " AND t.pending_status = 1 AND t.expires_at IS NOT NULL AND t.expires_at <= ?), 0)::bigint, "
                + "a.credits_posted, a.user_data_128, a.user_data_64, a.user_data_32, a.\"timestamp\" "
                + "FROM ledger.accounts a WHERE a.id = ANY(?)")) {
            statement.setLong(1, nowNs);
            statement.setLong(2, nowNs);
            statement.setArray(3, uuids(connection, new HashSet<>(ids)));
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    Account account = account(rows);
                    found.put(account.id(), account);
                }
            }
        }
        return ids.stream().filter(found::containsKey).map(found::get).toList();
    }

    /** The ids of a ledger's accounts created after {@code timestampAfter}, in timestamp order (one index range scan). */
    List<Id128> accountIdsAfter(Connection connection, int ledger, long timestampAfter, int limit) throws SQLException {
        List<Id128> ids = new ArrayList<>(Math.min(limit, 1_024));
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT id FROM ledger.accounts WHERE \"timestamp\" > ? AND ledger = ? ORDER BY \"timestamp\" LIMIT ?")) {
            statement.setLong(1, timestampAfter);
            statement.setInt(2, ledger);
            statement.setInt(3, limit);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    ids.add(Id128.fromUuid(rows.getObject(1, UUID.class)));
                }
            }
        }
        return ids;
    }

    private static void readTransfers(PreparedStatement statement, Map<Id128, StoredTransfer> into)
            throws SQLException {
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                Transfer transfer = new Transfer(
                        Id128.fromUuid(rows.getObject(1, UUID.class)),
                        Id128.fromUuid(rows.getObject(2, UUID.class)),
                        Id128.fromUuid(rows.getObject(3, UUID.class)),
                        rows.getLong(4),
                        Id128.fromUuid(rows.getObject(5, UUID.class)),
                        Id128.fromUuid(rows.getObject(6, UUID.class)),
                        rows.getLong(7),
                        rows.getInt(8),
                        rows.getInt(9),
                        rows.getInt(10),
                        rows.getInt(11),
                        rows.getInt(12),
                        rows.getLong(13));
                short status = rows.getShort(14);
                long expiresAt = rows.getLong(15);
                if (rows.wasNull()) {
                    expiresAt = StoredTransfer.NEVER;
                }
                into.put(transfer.id(), new StoredTransfer(transfer, expiresAt, status, false));
            }
        }
    }

    private static Account account(ResultSet rows) throws SQLException {
        return new Account(
                Id128.fromUuid(rows.getObject(1, UUID.class)),
                rows.getInt(2),
                rows.getInt(3),
                rows.getInt(4),
                rows.getLong(5),
                rows.getLong(6),
                rows.getLong(7),
                rows.getLong(8),
                Id128.fromUuid(rows.getObject(9, UUID.class)),
                rows.getLong(10),
                rows.getInt(11),
                rows.getLong(12));
    }

    private static Array uuids(Connection connection, Collection<Id128> ids) throws SQLException {
        UUID[] array = new UUID[ids.size()];
        int i = 0;
        for (Id128 id : ids) {
            array[i++] = id.toUuid();
        }
        return connection.createArrayOf("uuid", array);
    }
}
