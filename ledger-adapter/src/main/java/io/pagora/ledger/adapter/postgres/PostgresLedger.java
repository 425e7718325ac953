package io.pagora.ledger.adapter.postgres;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.LedgerUnavailableException;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ledger port on PostgreSQL, with TigerBeetle 0.16.30 semantics — for machines without a
 * TigerBeetle server, and as the honest baseline to compare it with.
 *
 * <p>One batch is one database transaction, processed set-based in a constant number of round trips
 * whatever its size (never one statement per transfer):
 * <ol>
 *   <li>read the wall clock and the transfers the batch names (its ids and pending ids), so it knows
 *       every account it can touch;
 *   <li>if any of those accounts holds a due (timed-out but unreleased) reservation, release those first
 *       in a short transaction of their own, then start again at the same ledger time — so expiry is
 *       correct whether or not a sweeper ever ran, and balances are never checked against a dead
 *       reservation;
 *   <li>lock the accounts with one {@code SELECT … ORDER BY id FOR UPDATE}: a deterministic lock
 *       order, so concurrent batches queue instead of deadlocking;
 *   <li>re-read, under the locks, every transfer the batch names (a concurrent batch may have created
 *       one of its ids, or resolved one of its pending transfers, meanwhile);
 *   <li>take the ledger clock's row last ({@link LedgerSql#stamp}): the batch's timestamps, distinct from every
 *       other event's and in commit order, as TigerBeetle's are; the row stays locked until commit;
 *   <li>run TigerBeetle's state machine in memory ({@link TransferStateMachine});
 *   <li>write back with one statement per kind: insert transfers, update balances, update pending
 *       states, record failed ids — then commit.
 * </ol>
 * A concurrent batch that inserts the same transfer id, or that commits a pending transfer on an
 * account this batch did not lock, makes the attempt abort and retry from scratch (bounded).
 *
 * <p>Over 400 lines on purpose: the steps above are one transaction's, in the order written; the state machine and
 * the SQL are already classes of their own ({@link TransferStateMachine}, {@link LedgerSql}).
 */
public final class PostgresLedger implements Ledger {

    private static final Logger log = LoggerFactory.getLogger(PostgresLedger.class);

    /** Flyway location and schema of the ledger tables; kept apart from any service's own schema. */
    public static final String SCHEMA = "ledger";

    private final DataSource dataSource;
    private final Config config;
    private final LedgerSql sql = new LedgerSql();

    /**
     * @param attemptsMax attempts per batch when a concurrent batch conflicts (unique id, lock closure)
     * @param statementTimeout deadline of every statement; a batch that exceeds it fails as unavailable
     * @param lockTimeout how long a batch waits for account locks held by other batches
     */
    public record Config(int attemptsMax, Duration statementTimeout, Duration lockTimeout) {
        public static final Config DEFAULT = new Config(8, Duration.ofSeconds(30), Duration.ofSeconds(10));

        public Config {
            Check.that(attemptsMax >= 1 && attemptsMax <= 100, "attemptsMax in 1..100: %d", attemptsMax);
        }
    }

    public PostgresLedger(DataSource dataSource, Config config) {
        this.dataSource = dataSource;
        this.config = config;
    }

    /** Runs the Flyway migrations of the ledger schema, then opens the ledger on {@code dataSource}. */
    public static PostgresLedger migrateAndOpen(DataSource dataSource) {
        migrate(dataSource);
        return new PostgresLedger(dataSource, Config.DEFAULT);
    }

    public static void migrate(DataSource dataSource) {
        Flyway.configure()
                .dataSource(dataSource)
                .schemas(SCHEMA)
                .defaultSchema(SCHEMA)
                .locations("classpath:db/ledger")
                .load()
                .migrate();
    }

    @Override
    public List<AccountResult> createAccounts(List<NewAccount> accounts) {
        Ledger.checkBatchSize(accounts.size());
        if (accounts.isEmpty()) {
            return List.of();
        }
        return inTransaction("create_accounts", connection -> {
            long clockNs = sql.begin(connection, config);
            Set<Id128> ids = new HashSet<>();
            accounts.forEach(account -> ids.add(account.id()));
            Map<Id128, Account> existing = sql.selectAccounts(connection, ids, false);
            long stampNs = sql.stamp(connection, accounts.size(), clockNs);
            AccountStateMachine machine = new AccountStateMachine(existing, stampNs);
            List<AccountResult> results = machine.execute(accounts);
            sql.insertAccounts(connection, machine.createdAccounts());
            return results;
        });
    }

    @Override
    public List<TransferResult> createTransfers(List<NewTransfer> transfers) {
        Ledger.checkBatchSize(transfers.size());
        if (transfers.isEmpty()) {
            return List.of();
        }
        long pinnedNowNs = 0;
        for (int attempt = 1; attempt <= config.attemptsMax(); attempt++) {
            long nowNs = pinnedNowNs;
            try {
                return inTransaction("create_transfers", connection -> createTransfers(connection, transfers, nowNs));
            } catch (DuePendingFound due) {
                // Release the due reservations first, in their own short transaction, then run the batch
                // again at the same ledger time: the due set it sees can then only shrink.
                pinnedNowNs = due.nowNs;
                expire(due.pendingIds, due.nowNs);
            }
        }
        throw new LedgerUnavailableException("postgresql ledger create_transfers kept meeting newly due pending"
                + " transfers after " + config.attemptsMax() + " attempts");
    }

    /**
     * One attempt. Aborts with {@link DuePendingFound} if an account it can touch holds a due (expired
     * but unreleased) reservation: balances must be checked without it, and releasing it changes the
     * pending transfer's other account too, which this attempt may not have locked.
     *
     * @param pinnedNowNs the ledger time to use, or 0 to read the clock
     */
    private List<TransferResult> createTransfers(Connection connection, List<NewTransfer> batch, long pinnedNowNs)
            throws SQLException {
        long clockNs = sql.begin(connection, config);
        long nowNs = pinnedNowNs != 0 ? pinnedNowNs : clockNs;
        Set<Id128> ids = new HashSet<>(batch.size() * 2);
        Set<Id128> pendingIds = new HashSet<>();
        Set<Id128> accountIds = new TreeSet<>();
        for (NewTransfer transfer : batch) {
            ids.add(transfer.id());
            if (!transfer.pendingId().isZero()) {
                pendingIds.add(transfer.pendingId());
            }
            addAccount(accountIds, transfer.debitAccountId());
            addAccount(accountIds, transfer.creditAccountId());
        }
        Set<Id128> named = new HashSet<>(ids);
        named.addAll(pendingIds);

        // Before locking: learn which accounts the batch can touch.
        Map<Id128, StoredTransfer> transfers = sql.selectTransfers(connection, named);
        for (Id128 pendingId : pendingIds) {
            StoredTransfer pending = transfers.get(pendingId);
            if (pending != null) {
                accountIds.add(pending.transfer.debitAccountId());
                accountIds.add(pending.transfer.creditAccountId());
            }
        }
        requireNoneDue(sql.selectDuePending(connection, accountIds, nowNs), nowNs);

        Map<Id128, AccountRow> accounts = sql.lockAccounts(connection, accountIds);

        // Under the locks: re-read every id the batch names, not only its pending ids. A concurrent batch
        // carrying the same ids (a redelivered poll cleared twice at once) may have committed them while
        // this one waited for the locks; judged on the pre-lock read, an id it created would look new here,
        // fail on the balance it spent, and burn the id — TigerBeetle answers EXISTS, and so must we.
        // A pending transfer or a due reservation committed since the reads above means: start over.
        transfers = sql.selectTransfers(connection, named);
        for (Id128 pendingId : pendingIds) {
            StoredTransfer pending = transfers.get(pendingId);
            if (pending != null) {
                requireLocked(accounts, pending.transfer.debitAccountId());
                requireLocked(accounts, pending.transfer.creditAccountId());
            }
        }
        requireNoneDue(sql.selectDuePending(connection, accounts.keySet(), nowNs), nowNs);

        // The batch's timestamps, distinct and in commit order, at least nowNs. Due reservations were released up to
        // nowNs (pinned on a retry, so the due set only shrinks and the retries end). The stamps can run past it, by
        // the events of the batches committed meanwhile: a reservation falling due in between still counts until it
        // is released, and posting it answers PENDING_TRANSFER_EXPIRED, as on TigerBeetle between a pending
        // transfer's expiry and the pulse that releases it.
        long stampNs = sql.stamp(connection, batch.size(), nowNs);
        TransferStateMachine machine =
                new TransferStateMachine(accounts, transfers, sql.selectFailedIds(connection, ids), stampNs);
        List<TransferResult> results = machine.execute(batch);

        sql.insertTransfers(connection, machine.createdTransfers());
        sql.updateBalances(connection, accounts.values());
        sql.updatePendingStatus(connection, machine.resolvedPending(), List.of());
        sql.insertFailedIds(connection, machine.newlyFailedIds());
        return results;
    }

    /** Releases an expired pending transfer's reservation from both of its (locked) accounts. */
    private static void release(StoredTransfer due, Map<Id128, AccountRow> accounts) {
        Check.that(due.status == StoredTransfer.PENDING, "only open pending transfers expire");
        AccountRow debit = accounts.get(due.transfer.debitAccountId());
        AccountRow credit = accounts.get(due.transfer.creditAccountId());
        Check.that(debit != null && credit != null, "both accounts of expiring %s are locked", due.transfer.id());
        debit.debitsPending = Math.subtractExact(debit.debitsPending, due.transfer.amount());
        credit.creditsPending = Math.subtractExact(credit.creditsPending, due.transfer.amount());
        Check.that(debit.debitsPending >= 0 && credit.creditsPending >= 0, "expiry releases only what was reserved");
        debit.dirty = true;
        credit.dirty = true;
        due.status = StoredTransfer.EXPIRED;
    }

    private static void requireNoneDue(List<StoredTransfer> due, long nowNs) {
        if (!due.isEmpty()) {
            throw new DuePendingFound(
                    due.stream().map(pending -> pending.transfer.id()).toList(), nowNs);
        }
    }

    private static void requireLocked(Map<Id128, AccountRow> accounts, Id128 accountId) {
        if (!accounts.containsKey(accountId)) {
            // A concurrent batch created a transfer on an account we did not lock: start over.
            throw new RetryableConflict("account " + accountId + " became relevant after locking");
        }
    }

    private static void addAccount(Set<Id128> accountIds, Id128 id) {
        if (!id.isZero() && !id.isMax()) {
            accountIds.add(id);
        }
    }

    /**
     * Accounts with expired reservations released. Reads only: a due pending transfer that no batch
     * has swept yet is subtracted on the fly, so balances are right whether or not a sweeper ran.
     */
    @Override
    public List<Account> lookupAccounts(List<Id128> ids) {
        Ledger.checkBatchSize(ids.size());
        if (ids.isEmpty()) {
            return List.of();
        }
        return inTransaction("lookup_accounts", connection -> {
            long nowNs = sql.begin(connection, config);
            return sql.lookupAccounts(connection, ids, nowNs);
        });
    }

    /** As {@link #lookupAccounts}, for the next page of the account set in timestamp order. */
    @Override
    public List<Account> queryAccounts(int ledger, long timestampAfter, int limit) {
        Ledger.checkQueryLimit(limit);
        Check.that(ledger != 0 && timestampAfter >= 0, "query_accounts of ledger %d after %d", ledger, timestampAfter);
        return inTransaction("query_accounts", connection -> {
            long nowNs = sql.begin(connection, config);
            List<Account> page = sql.lookupAccounts(
                    connection, sql.accountIdsAfter(connection, ledger, timestampAfter, limit), nowNs);
            Check.that(
                    page.size() <= limit, "query_accounts answered %d accounts for a limit of %d", page.size(), limit);
            return page;
        });
    }

    @Override
    public List<Transfer> lookupTransfers(List<Id128> ids) {
        Ledger.checkBatchSize(ids.size());
        if (ids.isEmpty()) {
            return List.of();
        }
        return inTransaction("lookup_transfers", connection -> {
            sql.begin(connection, config);
            Map<Id128, StoredTransfer> found = sql.selectTransfers(connection, new HashSet<>(ids));
            return ids.stream()
                    .filter(found::containsKey)
                    .map(id -> found.get(id).transfer)
                    .toList();
        });
    }

    @Override
    public List<Transfer> accountTransfers(Id128 account, Sides sides, long timestampAfter, int limit) {
        Ledger.checkQueryLimit(limit);
        Check.that(
                !account.equals(Id128.ZERO) && timestampAfter >= 0,
                "get_account_transfers of %s after %d",
                account,
                timestampAfter);
        return inTransaction("get_account_transfers", connection -> {
            sql.begin(connection, config);
            List<Transfer> page = sql.accountTransfers(connection, account, sides, timestampAfter, limit);
            Check.that(
                    page.size() <= limit,
                    "get_account_transfers answered %d transfers for a limit of %d",
                    page.size(),
                    limit);
            return page;
        });
    }

    /**
     * Marks at most {@code transfersMax} due pending transfers expired and releases their reservations.
     * Optional housekeeping: correctness never depends on it, but it keeps the due set small.
     *
     * @return how many pending transfers it expired
     */
    public int sweepExpired(int transfersMax) {
        Check.that(transfersMax > 0 && transfersMax <= BATCH_SIZE_MAX, "transfersMax in 1..%d", BATCH_SIZE_MAX);
        long nowNs = inTransaction("clock", connection -> sql.begin(connection, config));
        List<Id128> due =
                inTransaction("sweep_scan", connection -> sql.selectDuePending(connection, transfersMax, nowNs))
                        .stream()
                        .map(pending -> pending.transfer.id())
                        .toList();
        return due.isEmpty() ? 0 : expire(due, nowNs);
    }

    /**
     * Releases the named pending transfers that are still open and due at {@code nowNs}, as
     * TigerBeetle's expiry does: both accounts of each are locked (in id order), the reservation is
     * subtracted from both, and the transfer is marked expired. Returns how many it expired.
     */
    private int expire(Collection<Id128> pendingIds, long nowNs) {
        return inTransaction("expire_pending", connection -> {
            sql.begin(connection, config);
            Set<Id128> accountIds = new TreeSet<>();
            for (StoredTransfer pending :
                    sql.selectTransfers(connection, new HashSet<>(pendingIds)).values()) {
                accountIds.add(pending.transfer.debitAccountId());
                accountIds.add(pending.transfer.creditAccountId());
            }
            Map<Id128, AccountRow> accounts = sql.lockAccounts(connection, accountIds);
            List<StoredTransfer> due = sql.selectTransfers(connection, new HashSet<>(pendingIds)).values().stream()
                    .filter(pending -> pending.status == StoredTransfer.PENDING && pending.expiresAtNs <= nowNs)
                    .toList();
            for (StoredTransfer pending : due) {
                release(pending, accounts);
            }
            sql.updateBalances(connection, accounts.values());
            sql.updatePendingStatus(connection, List.of(), due);
            return due.size();
        });
    }

    @Override
    public String backendName() {
        return "postgresql";
    }

    /** The DataSource belongs to the caller; nothing to release here. */
    @Override
    public void close() {}

    @FunctionalInterface
    private interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private <T> T inTransaction(String operation, Work<T> work) {
        for (int attempt = 1; ; attempt++) {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(false);
                try {
                    T result = work.run(connection);
                    connection.commit();
                    return result;
                } catch (SQLException | RuntimeException e) {
                    rollbackQuietly(connection);
                    throw e;
                }
            } catch (RetryableConflict e) {
                retryOrGiveUp(operation, attempt, e);
            } catch (SQLException e) {
                if (!isRetryable(e)) {
                    throw new LedgerUnavailableException(
                            "postgresql ledger " + operation + " failed: " + e.getMessage(), e);
                }
                retryOrGiveUp(operation, attempt, e);
            }
        }
    }

    private void retryOrGiveUp(String operation, int attempt, Exception cause) {
        if (attempt >= config.attemptsMax()) {
            throw new LedgerUnavailableException(
                    "postgresql ledger " + operation + " still conflicting after " + attempt + " attempts", cause);
        }
        log.debug(
                "{} attempt {} conflicted with a concurrent batch, retrying: {}",
                operation,
                attempt,
                cause.getMessage());
        try {
            // Jittered backoff so two batches that collided do not collide again in lockstep.
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 1L << Math.min(attempt + 1, 7)));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new LedgerUnavailableException("interrupted while retrying " + operation, interrupted);
        }
    }

    /** unique_violation (a concurrent batch inserted the same id), deadlock, serialization failure, lock timeout. */
    private static boolean isRetryable(SQLException e) {
        String state = e.getSQLState();
        return "23505".equals(state) || "40P01".equals(state) || "40001".equals(state) || "55P03".equals(state);
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            log.warn("rollback failed; the connection will be discarded by the pool: {}", e.getMessage());
        }
    }

    /** Aborts an attempt that met due reservations; the caller releases them and tries again. */
    static final class DuePendingFound extends RuntimeException {
        final List<Id128> pendingIds;
        final long nowNs;

        DuePendingFound(List<Id128> pendingIds, long nowNs) {
            super("due pending transfers " + pendingIds.size(), null, false, false);
            this.pendingIds = pendingIds;
            this.nowNs = nowNs;
        }
    }

    /** Thrown inside an attempt to abort it and start over; never escapes this class. */
    static final class RetryableConflict extends RuntimeException {
        RetryableConflict(String message) {
            super(message, null, false, false);
        }
    }
}
