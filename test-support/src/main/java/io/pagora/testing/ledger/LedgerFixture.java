package io.pagora.testing.ledger;

import static io.pagora.ledger.port.TransferResult.OK;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountFlags;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferFlags;
import io.pagora.ledger.port.TransferResult;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import org.opentest4j.TestAbortedException;

/**
 * What every test on a {@link Ledger} starts from: one backend per class (opened by the subclass, SKIPPED
 * with the reason when it is unavailable), a closed world of accounts the running test created, an
 * issuer that funds them, transfer builders, races, and the money invariants over that world.
 *
 * <p>Tests share one ledger per class (a TigerBeetle server may be shared by the whole run), so each
 * test works only with fresh random ids and accounts it created itself, and funds them from its own
 * issuer account. The ledger contract (ledger-adapter) and the settlement contract (settlement) both
 * build on it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class LedgerFixture {

    protected static final int LEDGER = 700;
    protected static final int OTHER_LEDGER = 701;
    protected static final int CODE = 1;
    protected static final int NO_LIMIT = AccountFlags.NONE;
    protected static final int DEBITS_LIMITED = AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS;
    protected static final int CREDITS_LIMITED = AccountFlags.CREDITS_MUST_NOT_EXCEED_DEBITS;
    /** Long enough never to expire during a test. */
    protected static final int LONG_TIMEOUT = 3600;

    protected static final SecureRandom RANDOM = new SecureRandom();

    protected Ledger ledger;
    /** The accounts the running test created: the closed world its money invariants are checked over. */
    private final List<Id128> tracked = Collections.synchronizedList(new ArrayList<>());

    private Id128 issuer;
    private TestAbortedException backendUnavailable;

    /** Opens the backend under test; may abort with an assumption (the class is then reported skipped). */
    protected abstract Ledger openLedger();

    /** What {@link #openLedger()} acquired besides the ledger (e.g. a database pool), closed after it. */
    private final List<AutoCloseable> closeAfterLedger = new ArrayList<>();

    /** Registers a resource the ledger uses, to be closed once the ledger is; returns it. */
    protected final <T extends AutoCloseable> T closeAfterLedger(T resource) {
        closeAfterLedger.add(resource);
        return resource;
    }

    @BeforeAll
    final void openBackend() {
        try {
            ledger = openLedger();
        } catch (TestAbortedException unavailable) {
            // Reported per test (SKIPPED, with the reason), so the skip shows in every test count.
            backendUnavailable = unavailable;
        }
    }

    @AfterAll
    final void closeBackend() {
        if (ledger != null) {
            ledger.close();
        }
        for (AutoCloseable resource : closeAfterLedger) {
            try {
                resource.close();
            } catch (Exception e) {
                throw new IllegalStateException("could not close " + resource, e);
            }
        }
    }

    @BeforeEach
    final void newWorld() {
        if (backendUnavailable != null) {
            throw backendUnavailable;
        }
        tracked.clear();
        issuer = null;
    }

    // =============================================================================================
    // Fixtures and helpers

    /** A fresh random id, never zero or all ones. */
    public static Id128 newId() {
        while (true) {
            Id128 id = new Id128(RANDOM.nextLong(), RANDOM.nextLong());
            if (!id.isZero() && !id.isMax()) {
                return id;
            }
        }
    }

    /** Balances of one account: debits pending/posted, credits pending/posted. */
    public record Balances(long debitsPending, long debitsPosted, long creditsPending, long creditsPosted) {}

    protected static Balances balancesOf(Account account) {
        return new Balances(
                account.debitsPending(), account.debitsPosted(), account.creditsPending(), account.creditsPosted());
    }

    protected Id128 account(int flags) {
        return account(LEDGER, flags);
    }

    protected Id128 account(int ledgerNumber, int flags) {
        Id128 id = newId();
        assertThat(ledger.createAccounts(List.of(NewAccount.of(id, ledgerNumber, CODE, flags))))
                .containsExactly(AccountResult.OK);
        tracked.add(id);
        return id;
    }

    /** This test's own unlimited source of money on {@link #LEDGER}. */
    protected Id128 issuer() {
        if (issuer == null) {
            issuer = account(NO_LIMIT);
        }
        return issuer;
    }

    protected void fund(Id128 account, long amount) {
        assertThat(create(tx().debit(issuer())
                        .credit(account)
                        .amount(amount)
                        .code(CODE)
                        .build()))
                .isEqualTo(OK);
    }

    /** A new debits_must_not_exceed_credits account (a customer) holding {@code amount}. */
    protected Id128 funded(long amount) {
        Id128 account = account(DEBITS_LIMITED);
        fund(account, amount);
        return account;
    }

    protected TransferResult create(NewTransfer transfer) {
        List<TransferResult> results = ledger.createTransfers(List.of(transfer));
        assertThat(results).hasSize(1);
        return results.getFirst();
    }

    protected Account lookupAccount(Id128 id) {
        List<Account> found = ledger.lookupAccounts(List.of(id));
        assertThat(found).as("account %s exists", id).hasSize(1);
        return found.getFirst();
    }

    protected Transfer lookupTransfer(Id128 id) {
        List<Transfer> found = ledger.lookupTransfers(List.of(id));
        assertThat(found).as("transfer %s exists", id).hasSize(1);
        return found.getFirst();
    }

    protected Balances balances(Id128 account) {
        return balancesOf(lookupAccount(account));
    }

    /** Balances of every account this test created. */
    protected Map<Id128, Balances> balancesOfAll() {
        List<Id128> ids = List.copyOf(tracked);
        return ledger.lookupAccounts(ids).stream()
                .collect(Collectors.toMap(
                        Account::id, LedgerFixture::balancesOf, (a, b) -> a, java.util.LinkedHashMap::new));
    }

    /** Adds an account the test did not create through {@link #account} to its closed world. */
    protected void track(Id128 account) {
        tracked.add(account);
    }

    protected List<Id128> trackedAccounts() {
        return List.copyOf(tracked);
    }

    protected void assertMoneyInvariants() {
        MoneyInvariants.check(ledger, trackedAccounts());
    }

    protected void assertNothingPending() {
        MoneyInvariants.checkNothingPending(ledger, trackedAccounts(), "");
    }

    /** Runs the tasks at once on their own threads, released together; results in task order. */
    protected static <T> List<T> race(List<Callable<T>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            CountDownLatch ready = new CountDownLatch(tasks.size());
            CountDownLatch go = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (Callable<T> task : tasks) {
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return task.call();
                }));
            }
            ready.await();
            go.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    public static void sleepUntil(long nanoTime) throws InterruptedException {
        long remaining;
        while ((remaining = nanoTime - System.nanoTime()) > 0) {
            Thread.sleep(Math.max(1, remaining / 1_000_000));
        }
    }

    /** Polls {@code condition} every 50 ms until it holds or {@code limit} passes (the caller asserts after). */
    public static void awaitTrue(BooleanSupplier condition, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    protected static Tx tx() {
        return new Tx();
    }

    /** A mutable builder of {@link NewTransfer}s with a fresh id and valid defaults on {@link #LEDGER}. */
    public static final class Tx {
        private Id128 id = newId();
        private Id128 debit = Id128.ZERO;
        private Id128 credit = Id128.ZERO;
        private long amount;
        private Id128 pendingId = Id128.ZERO;
        private Id128 userData128 = Id128.ZERO;
        private long userData64;
        private int userData32;
        private int timeout;
        private int ledger = LEDGER;
        private int code = CODE;
        private int flags = TransferFlags.NONE;
        /** Free slots for test tables that need the accounts behind a post. */
        public Id128 debitHint;

        public Id128 creditHint;

        public Tx id(Id128 value) {
            id = value;
            return this;
        }

        public Tx debit(Id128 value) {
            debit = value;
            return this;
        }

        public Tx credit(Id128 value) {
            credit = value;
            return this;
        }

        public Tx amount(long value) {
            amount = value;
            return this;
        }

        public Tx pendingId(Id128 value) {
            pendingId = value;
            return this;
        }

        public Tx userData(Id128 u128, long u64, int u32) {
            userData128 = u128;
            userData64 = u64;
            userData32 = u32;
            return this;
        }

        public Tx timeout(int seconds) {
            timeout = seconds;
            return this;
        }

        public Tx ledger(int value) {
            ledger = value;
            return this;
        }

        public Tx code(int value) {
            code = value;
            return this;
        }

        public Tx flags(int value) {
            flags = value;
            return this;
        }
        /** Makes it a pending transfer with this timeout. */
        public Tx pending(int timeoutSeconds) {
            flags |= TransferFlags.PENDING;
            timeout = timeoutSeconds;
            return this;
        }

        public Tx linked() {
            flags |= TransferFlags.LINKED;
            return this;
        }

        /** A builder holding every field of {@code transfer}, id included. */
        public static Tx of(NewTransfer transfer) {
            Tx tx = new Tx();
            tx.id = transfer.id();
            tx.debit = transfer.debitAccountId();
            tx.credit = transfer.creditAccountId();
            tx.amount = transfer.amount();
            tx.pendingId = transfer.pendingId();
            tx.userData128 = transfer.userData128();
            tx.userData64 = transfer.userData64();
            tx.userData32 = transfer.userData32();
            tx.timeout = transfer.timeoutSeconds();
            tx.ledger = transfer.ledger();
            tx.code = transfer.code();
            tx.flags = transfer.flags();
            return tx;
        }

        public Tx copy() {
            Tx copy = new Tx();
            copy.id = id;
            copy.debit = debit;
            copy.credit = credit;
            copy.amount = amount;
            copy.pendingId = pendingId;
            copy.userData128 = userData128;
            copy.userData64 = userData64;
            copy.userData32 = userData32;
            copy.timeout = timeout;
            copy.ledger = ledger;
            copy.code = code;
            copy.flags = flags;
            copy.debitHint = debitHint;
            copy.creditHint = creditHint;
            return copy;
        }

        public NewTransfer build() {
            return new NewTransfer(
                    id,
                    debit,
                    credit,
                    amount,
                    pendingId,
                    userData128,
                    userData64,
                    userData32,
                    timeout,
                    ledger,
                    code,
                    flags);
        }
    }
}
