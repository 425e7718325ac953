package io.pagora.ledger.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.pagora.kernel.Id128;
import io.pagora.ledger.adapter.postgres.PostgresLedger;
import io.pagora.ledger.adapter.tigerbeetle.TigerBeetleLedger;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountFlags;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferFlags;
import io.pagora.ledger.port.TransferResult;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestPostgres;
import io.pagora.testing.TigerBeetleServer;
import io.pagora.testing.ledger.LedgerFixture;
import io.pagora.testing.ledger.MoneyInvariants;
import io.pagora.testing.ledger.ReferenceLedger;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded randomized tests of the ledger backends against {@link ReferenceLedger}, the oracle.
 *
 * <p>One seed (system property {@code pagora.seed}, else random; printed first and in every failure)
 * drives a few thousand mixed events: account creation (limited, unlimited, invalid, duplicates, linked
 * chains), plain and pending transfers (some with 1–2 s timeouts), full, partial and zero posts, voids,
 * linked chains of 2–4 events of which some fail, open chains, identical and altered duplicates of
 * earlier events, resolutions of already-resolved pendings, and invalid events of every kind. Every
 * request's results must equal the model's, event by event; posted balances are compared as the run
 * goes; at the end every pending transfer is resolved or has expired, and every balance and every
 * stored transfer must equal the model's, with the money invariants holding.
 *
 * <p>The differential test replays the same seed on TigerBeetle and PostgreSQL and requires identical
 * outcomes: results per event, final balances and stored transfers (ids compared by their place in the
 * run, since each run has its own id prefix).
 *
 * <p>Determinism: the event stream depends only on the seed and the model, never on the backend or the
 * clock. Pending transfers with a short timeout only ever sit on accounts whose limits cannot see them
 * (no {@code debits_must_not_exceed_credits} on the debit side, no {@code credits_must_not_exceed_debits}
 * on the credit side), and no post or void ever targets them, so when they expire during the run changes
 * no result. They are checked once they have all expired, at the end.
 */
@ServerBacked
class RandomizedLedgerTest {

    private static final long SEED = Long.getLong("pagora.seed", new SecureRandom().nextLong());
    private static final int BATCHES = Integer.getInteger("pagora.randomized.batches", 400);
    private static final int SHORT_TIMEOUT_MAX = 2;
    private static final int LONG_TIMEOUT = 3600;
    private static final int LEDGER_A = 1;
    private static final int LEDGER_B = 2;

    static {
        System.out.println("[RandomizedLedgerTest] seed=" + SEED + " batches=" + BATCHES
                + " (re-run with -Dpagora.seed=" + SEED + ")");
    }

    @Test
    @Timeout(120)
    @DisplayName("PostgresLedger agrees with the reference model on a seeded random workload")
    void postgresAgreesWithTheReferenceModel() throws InterruptedException {
        try (TestPostgres.Database database = TestPostgres.freshDatabase();
                PostgresLedger ledger = PostgresLedger.migrateAndOpen(database.dataSource())) {
            new Run(SEED, BATCHES, ledger, postgresSweep(ledger), true).execute();
        }
    }

    @Test
    @Timeout(180)
    @DisplayName("TigerBeetle and PostgresLedger give identical outcomes on the same seeded workload")
    void tigerBeetleAndPostgresAgree() throws InterruptedException {
        Recording onTigerBeetle;
        try (Ledger ledger = TigerBeetleServer.requireShared()
                .openLedger((cluster, address) ->
                        new TigerBeetleLedger(cluster, address, TigerBeetleLedgerContractTest.CONFIG))) {
            onTigerBeetle = new Run(SEED, BATCHES, ledger, null, false).execute();
        }
        Recording onPostgres;
        try (TestPostgres.Database database = TestPostgres.freshDatabase();
                PostgresLedger ledger = PostgresLedger.migrateAndOpen(database.dataSource())) {
            onPostgres = new Run(SEED, BATCHES, ledger, postgresSweep(ledger), false).execute();
        }
        // First the differential verdict, which needs no model; then each backend against the model.
        onPostgres.assertSameAs(onTigerBeetle, "seed=" + SEED);
        assertThat(onTigerBeetle.modelDisagreements())
                .as("seed=%d: TigerBeetle vs the reference model", SEED)
                .isEmpty();
        assertThat(onPostgres.modelDisagreements())
                .as("seed=%d: PostgreSQL vs the reference model", SEED)
                .isEmpty();
    }

    private static Consumer<String> postgresSweep(PostgresLedger ledger) {
        return context -> {
            for (int round = 0; round < 100 && ledger.sweepExpired(Ledger.BATCH_SIZE_MAX) > 0; round++) {
                // sweep until nothing is due
            }
            assertThat(ledger.sweepExpired(Ledger.BATCH_SIZE_MAX))
                    .as(context + ": a second sweep finds nothing")
                    .isZero();
        };
    }

    /** What one run produced, with ids replaced by their place in the run so runs can be compared. */
    record Recording(
            List<String> requests, List<String> balances, List<String> transfers, List<String> modelDisagreements) {

        void assertSameAs(Recording other, String context) {
            compare("request", requests, other.requests, context);
            compare("final balances of account", balances, other.balances, context);
            compare("stored transfer", transfers, other.transfers, context);
        }

        private static void compare(String what, List<String> mine, List<String> theirs, String context) {
            for (int i = 0; i < Math.min(mine.size(), theirs.size()); i++) {
                if (!mine.get(i).equals(theirs.get(i))) {
                    fail(String.format(
                            "[%s] %s #%d differs:%n  postgresql:  %s%n  tigerbeetle: %s",
                            context, what, i, mine.get(i), theirs.get(i)));
                }
            }
            assertThat(mine.size())
                    .as("[%s] number of %s records", context, what)
                    .isEqualTo(theirs.size());
        }
    }

    /** A model-driven run of the generator against one backend. */
    static final class Run {
        private final long seed;
        private final int batches;
        private final Ledger backend;
        private final Consumer<String> sweep;
        private final Random random;
        private final long[] modelClock = {1_000_000_000_000L};
        private final ReferenceLedger model = new ReferenceLedger(() -> modelClock[0]);
        /** Every id of this run has this high half, so a shared server never mixes runs. */
        private final long prefix = 1 + new SecureRandom().nextLong(Long.MAX_VALUE - 1);

        private long counter;

        private final List<NewAccount> accounts = new ArrayList<>(); // created, in creation order
        private final List<NewAccount> sentAccounts = new ArrayList<>();
        private final List<NewTransfer> sentTransfers = new ArrayList<>();
        private final List<Transfer> longPendings = new ArrayList<>(); // OK pending transfers, timeout 0 or long
        private final List<Id128> plainTransfers = new ArrayList<>();
        private final List<Id128> transferIds = new ArrayList<>(); // every distinct id sent, first-seen order
        private final Map<Id128, Boolean> seenTransferIds = new HashMap<>();
        private long lastShortPendingNanos;
        /** Strict: a disagreement with the model fails at once; else it is collected (differential runs). */
        private final boolean strict;

        private final List<String> modelDisagreements = new ArrayList<>();
        private final List<String> requestLog = new ArrayList<>();
        private final Map<TransferResult, Integer> resultCounts = new java.util.EnumMap<>(TransferResult.class);

        Run(long seed, int batches, Ledger backend, Consumer<String> sweep, boolean strict) {
            this.strict = strict;
            this.seed = seed;
            this.batches = batches;
            this.backend = backend;
            this.sweep = sweep;
            this.random = new Random(seed);
        }

        private String context(String where) {
            return "seed=" + seed + ", backend=" + backend.backendName() + ", " + where + " (re-run: -Dpagora.seed="
                    + seed + ")";
        }

        Recording execute() throws InterruptedException {
            long started = System.nanoTime();
            setUp();
            for (int batch = 0; batch < batches; batch++) {
                if (random.nextInt(100) < 6) {
                    accountBatch(batch);
                } else {
                    transferBatch(batch);
                }
                if (batch % 50 == 49) {
                    comparePostedBalances("after batch " + batch);
                }
            }
            finish();
            Recording recording = new Recording(
                    List.copyOf(requestLog), finalBalances(), storedTransfers(), List.copyOf(modelDisagreements));
            System.out.printf(
                    "[RandomizedLedgerTest] %s: %d requests, %d transfers, %d accounts in %d ms; results %s%n",
                    backend.backendName(),
                    requestLog.size(),
                    transferIds.size(),
                    accounts.size(),
                    (System.nanoTime() - started) / 1_000_000,
                    resultCounts);
            return recording;
        }

        // ----------------------------------------------------------------------------- the world

        private Id128 newId() {
            return new Id128(prefix, ++counter);
        }

        private void setUp() {
            List<NewAccount> initial = new ArrayList<>();
            initial.add(NewAccount.of(newId(), LEDGER_A, 1, AccountFlags.NONE)); // issuer of ledger A
            initial.add(NewAccount.of(newId(), LEDGER_B, 1, AccountFlags.NONE)); // issuer of ledger B
            for (int i = 0; i < 14; i++) {
                initial.add(randomNewAccount(i < 11 ? LEDGER_A : LEDGER_B));
            }
            sendAccounts(initial, "setup");
            List<NewTransfer> funding = new ArrayList<>();
            for (NewAccount account : accounts) {
                if (account.flags() == AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS) {
                    funding.add(plain(
                            issuer(account.ledger()), account.id(), 500 + random.nextInt(1000), account.ledger()));
                }
            }
            sendTransfers(funding, "setup funding");
        }

        private NewAccount randomNewAccount(int ledger) {
            int roll = random.nextInt(10);
            int flags = roll < 4
                    ? AccountFlags.NONE
                    : roll < 8
                            ? AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS
                            : AccountFlags.CREDITS_MUST_NOT_EXCEED_DEBITS;
            return new NewAccount(newId(), ledger, 1 + random.nextInt(3), flags, Id128.ZERO, random.nextInt(3), 0);
        }

        private Id128 issuer(int ledger) {
            return accounts.get(ledger == LEDGER_A ? 0 : 1).id();
        }

        private NewAccount anyAccount() {
            return accounts.get(random.nextInt(accounts.size()));
        }

        private List<NewAccount> accountsOn(int ledger) {
            return accounts.stream().filter(a -> a.ledger() == ledger).toList();
        }

        private <T> T pick(List<T> list) {
            return list.get(random.nextInt(list.size()));
        }

        private long amount() {
            return random.nextInt(12) == 0 ? 0 : 1 + random.nextInt(random.nextBoolean() ? 40 : 200);
        }

        private static NewTransfer plain(Id128 debit, Id128 credit, long amount, int ledger) {
            return new NewTransfer(
                    Id128.ZERO, debit, credit, amount, Id128.ZERO, Id128.ZERO, 0, 0, 0, ledger, 1, TransferFlags.NONE);
        }

        private static NewTransfer withId(NewTransfer t, Id128 id) {
            return edit(t, tx -> tx.id(id));
        }

        private static NewTransfer edit(
                NewTransfer transfer, java.util.function.UnaryOperator<LedgerContract.Tx> change) {
            return change.apply(LedgerContract.Tx.of(transfer)).build();
        }

        // ----------------------------------------------------------------------------- accounts

        private void accountBatch(int batch) {
            List<NewAccount> events = new ArrayList<>();
            int size = 1 + random.nextInt(5);
            for (int i = 0; i < size; i++) {
                int roll = random.nextInt(100);
                if (roll < 55) {
                    events.add(randomNewAccount(random.nextInt(5) == 0 ? LEDGER_B : LEDGER_A));
                } else if (roll < 75 && !sentAccounts.isEmpty()) {
                    NewAccount earlier = pick(sentAccounts);
                    events.add(random.nextBoolean() ? earlier : alter(earlier));
                } else {
                    events.add(invalidAccount());
                }
            }
            if (events.size() > 1 && random.nextInt(3) == 0) {
                int from = random.nextInt(events.size() - 1);
                int to = from + 1 + random.nextInt(Math.min(3, events.size() - from - 1));
                for (int i = from; i < to; i++) {
                    events.set(i, events.get(i).withFlags(events.get(i).flags() | AccountFlags.LINKED));
                }
            }
            if (random.nextInt(25) == 0) {
                NewAccount last = events.getLast();
                events.set(events.size() - 1, last.withFlags(last.flags() | AccountFlags.LINKED));
            }
            sendAccounts(events, "account batch " + batch);
        }

        private NewAccount alter(NewAccount a) {
            return switch (random.nextInt(5)) {
                case 0 -> a.withFlags(a.flags() ^ AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS);
                case 1 ->
                    new NewAccount(
                            a.id(), a.ledger(), a.code(), a.flags(), new Id128(0, 9), a.userData64(), a.userData32());
                case 2 ->
                    new NewAccount(
                            a.id(),
                            a.ledger(),
                            a.code(),
                            a.flags(),
                            a.userData128(),
                            a.userData64() + 1,
                            a.userData32());
                case 3 ->
                    new NewAccount(
                            a.id(),
                            a.ledger() == LEDGER_A ? LEDGER_B : LEDGER_A,
                            a.code(),
                            a.flags(),
                            a.userData128(),
                            a.userData64(),
                            a.userData32());
                default ->
                    new NewAccount(
                            a.id(),
                            a.ledger(),
                            a.code() + 1,
                            a.flags(),
                            a.userData128(),
                            a.userData64(),
                            a.userData32() + 1);
            };
        }

        private NewAccount invalidAccount() {
            return switch (random.nextInt(5)) {
                case 0 -> NewAccount.of(Id128.ZERO, LEDGER_A, 1, AccountFlags.NONE);
                case 1 -> NewAccount.of(Id128.MAX, LEDGER_A, 1, AccountFlags.NONE);
                case 2 ->
                    NewAccount.of(
                            newId(),
                            LEDGER_A,
                            1,
                            AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS | AccountFlags.CREDITS_MUST_NOT_EXCEED_DEBITS);
                case 3 -> NewAccount.of(newId(), 0, 1, AccountFlags.NONE);
                default -> NewAccount.of(newId(), LEDGER_A, 0, AccountFlags.NONE);
            };
        }

        private void sendAccounts(List<NewAccount> events, String where) {
            List<AccountResult> expected = model.createAccounts(events);
            List<AccountResult> actual = call(where + " " + describe(events), () -> backend.createAccounts(events));
            checkResults(events, expected, actual, where);
            for (int i = 0; i < events.size(); i++) {
                sentAccounts.add(events.get(i));
                if (expected.get(i) == AccountResult.OK) {
                    accounts.add(events.get(i));
                }
            }
            requestLog.add("accounts " + normalize(actual));
        }

        // ----------------------------------------------------------------------------- transfers

        private void transferBatch(int batch) {
            List<NewTransfer> events = new ArrayList<>();
            int size = 1 + random.nextInt(random.nextInt(4) == 0 ? 40 : 12);
            while (events.size() < size) {
                if (random.nextInt(100) < 12) {
                    events.addAll(chain());
                } else {
                    events.add(transferEvent());
                }
            }
            if (random.nextInt(30) == 0) {
                events.set(events.size() - 1, events.getLast().linked()); // left open
            }
            sendTransfers(events, "transfer batch " + batch);
        }

        /** 2–4 linked events; about a third get a deliberately failing member. */
        private List<NewTransfer> chain() {
            int length = 2 + random.nextInt(3);
            List<NewTransfer> chain = new ArrayList<>();
            for (int i = 0; i < length; i++) {
                chain.add(transferEvent());
            }
            if (random.nextInt(3) == 0) {
                chain.set(random.nextInt(length), invalidTransfer());
            }
            for (int i = 0; i < length - 1; i++) {
                chain.set(i, chain.get(i).linked());
            }
            // The tail must not be linked, or the chain would extend into the next event.
            NewTransfer tail = chain.getLast();
            chain.set(length - 1, tail.withFlags(tail.flags() & ~TransferFlags.LINKED));
            return chain;
        }

        private NewTransfer transferEvent() {
            int roll = random.nextInt(100);
            if (roll < 28) return plainTransfer();
            if (roll < 36) return funding();
            if (roll < 46) return pendingTransfer(false);
            if (roll < 52) return pendingTransfer(true);
            if (roll < 64) return post();
            if (roll < 71) return voidOne();
            if (roll < 82) return duplicate();
            return invalidTransfer();
        }

        private NewTransfer plainTransfer() {
            int ledger = random.nextInt(6) == 0 ? LEDGER_B : LEDGER_A;
            List<NewAccount> on = accountsOn(ledger);
            NewAccount debit = pick(on);
            NewAccount credit = pick(on);
            if (debit.equals(credit)) {
                credit = pick(on.stream().filter(a -> !a.equals(debit)).toList());
            }
            return withId(
                    new NewTransfer(
                            Id128.ZERO,
                            debit.id(),
                            credit.id(),
                            amount(),
                            Id128.ZERO,
                            random.nextInt(4) == 0 ? new Id128(0, random.nextInt(5)) : Id128.ZERO,
                            random.nextInt(3),
                            random.nextInt(3),
                            0,
                            ledger,
                            1 + random.nextInt(3),
                            TransferFlags.NONE),
                    newId());
        }

        /** Keeps money flowing into limited accounts. */
        private NewTransfer funding() {
            NewAccount target = anyAccount();
            if (target.id().equals(issuer(target.ledger()))) {
                return plainTransfer();
            }
            return withId(
                    plain(issuer(target.ledger()), target.id(), 100 + random.nextInt(900), target.ledger()), newId());
        }

        private NewTransfer pendingTransfer(boolean shortTimeout) {
            NewTransfer base = plainTransfer();
            if (!shortTimeout) {
                int timeout = random.nextInt(3) == 0 ? 0 : LONG_TIMEOUT;
                return edit(base, t -> t.flags(TransferFlags.PENDING).timeout(timeout));
            }
            // Only where no limit can see the reservation: its expiry time then changes no outcome.
            List<NewAccount> debits = accounts.stream()
                    .filter(a -> !AccountFlags.has(a.flags(), AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS))
                    .toList();
            NewAccount debit = pick(debits);
            List<NewAccount> credits = accountsOn(debit.ledger()).stream()
                    .filter(a -> !a.equals(debit)
                            && !AccountFlags.has(a.flags(), AccountFlags.CREDITS_MUST_NOT_EXCEED_DEBITS))
                    .toList();
            if (credits.isEmpty()) {
                return base;
            }
            return new NewTransfer(
                    newId(),
                    debit.id(),
                    pick(credits).id(),
                    amount(),
                    Id128.ZERO,
                    Id128.ZERO,
                    0,
                    0,
                    1 + random.nextInt(SHORT_TIMEOUT_MAX),
                    debit.ledger(),
                    1,
                    TransferFlags.PENDING);
        }

        private NewTransfer post() {
            if (longPendings.isEmpty()) {
                return plainTransfer();
            }
            Transfer pending = pick(longPendings);
            long amount = switch (random.nextInt(10)) {
                case 0, 1 -> pending.amount() == 0 ? 0 : random.nextLong(pending.amount() + 1); // partial
                case 2 -> 0;
                case 3 -> pending.amount() + 1; // exceeds
                default -> pending.amount();
            };
            int variant = random.nextInt(12);
            Id128 debit =
                    variant == 0 ? pending.debitAccountId() : variant == 1 ? pending.creditAccountId() : Id128.ZERO;
            int ledger = variant == 2 ? pending.ledger() : variant == 3 ? pending.ledger() + 1 : 0;
            int code = variant == 4 ? pending.code() : variant == 5 ? pending.code() + 1 : 0;
            long userData64 = variant == 6 ? 77 : 0;
            return new NewTransfer(
                    newId(),
                    debit,
                    Id128.ZERO,
                    amount,
                    pending.id(),
                    Id128.ZERO,
                    userData64,
                    0,
                    0,
                    ledger,
                    code,
                    TransferFlags.POST_PENDING_TRANSFER);
        }

        private NewTransfer voidOne() {
            if (longPendings.isEmpty()) {
                return plainTransfer();
            }
            Transfer pending = pick(longPendings);
            long amount = switch (random.nextInt(6)) {
                case 0 -> pending.amount();
                case 1 -> Math.max(0, pending.amount() - 1); // less: refused unless the pending amount is 0 or 1
                case 2 -> pending.amount() + 1;
                default -> 0;
            };
            return new NewTransfer(
                    newId(),
                    Id128.ZERO,
                    Id128.ZERO,
                    amount,
                    pending.id(),
                    Id128.ZERO,
                    0,
                    0,
                    0,
                    0,
                    0,
                    TransferFlags.VOID_PENDING_TRANSFER);
        }

        /** An earlier event again, identical or with one field altered (never its accounts or timeout). */
        private NewTransfer duplicate() {
            if (sentTransfers.isEmpty()) {
                return plainTransfer();
            }
            NewTransfer earlier = pick(sentTransfers);
            if (random.nextBoolean()) {
                return earlier;
            }
            return switch (random.nextInt(5)) {
                case 0 -> edit(earlier, t -> t.amount(earlier.amount() + 1));
                case 1 -> edit(earlier, t -> t.code(earlier.code() + 1));
                case 2 ->
                    edit(
                            earlier,
                            t -> t.userData(earlier.userData128(), earlier.userData64() + 1, earlier.userData32()));
                case 3 ->
                    edit(
                            earlier,
                            t -> t.userData(earlier.userData128(), earlier.userData64(), earlier.userData32() + 1));
                default -> edit(earlier, t -> t.ledger(otherLedger(earlier.ledger())));
            };
        }

        private NewTransfer invalidTransfer() {
            NewTransfer valid = plainTransfer();
            Id128 aPlain = plainTransfers.isEmpty() ? newId() : pick(plainTransfers);
            Id128 aPending =
                    longPendings.isEmpty() ? newId() : pick(longPendings).id();
            Id128 id = newId();
            Id128 unknownDebit = newId();
            Id128 unknownCredit = newId();
            Id128 onOtherLedger = pick(accountsOn(otherLedger(valid.ledger()))).id();
            return switch (random.nextInt(20)) {
                case 0 -> withId(valid, Id128.ZERO);
                case 1 -> withId(valid, Id128.MAX);
                case 2 -> edit(valid, t -> t.debit(Id128.ZERO));
                case 3 -> edit(valid, t -> t.credit(Id128.MAX));
                case 4 -> edit(valid, t -> t.credit(valid.debitAccountId()));
                case 5 -> edit(valid, t -> t.pendingId(aPending));
                case 6 -> edit(valid, t -> t.timeout(3));
                case 7 -> edit(valid, t -> t.ledger(0));
                case 8 -> edit(valid, t -> t.code(0));
                case 9 -> edit(valid, t -> t.ledger(otherLedger(valid.ledger())));
                case 10 -> edit(valid, t -> t.debit(unknownDebit)); // unknown: transient, burns the id
                case 11 -> edit(valid, t -> t.credit(unknownCredit));
                case 12 -> edit(valid, t -> t.credit(onOtherLedger));
                case 13 ->
                    new NewTransfer(
                            id,
                            Id128.ZERO,
                            Id128.ZERO,
                            1,
                            Id128.ZERO,
                            Id128.ZERO,
                            0,
                            0,
                            0,
                            0,
                            0,
                            TransferFlags.POST_PENDING_TRANSFER);
                case 14 ->
                    new NewTransfer(
                            id,
                            Id128.ZERO,
                            Id128.ZERO,
                            1,
                            id,
                            Id128.ZERO,
                            0,
                            0,
                            0,
                            0,
                            0,
                            TransferFlags.VOID_PENDING_TRANSFER);
                case 15 -> NewTransfer.post(id, newId(), 1); // unknown pending: transient
                case 16 -> NewTransfer.post(id, aPlain, 1); // not pending
                case 17 ->
                    new NewTransfer(
                            id,
                            Id128.ZERO,
                            Id128.ZERO,
                            0,
                            aPending,
                            Id128.ZERO,
                            0,
                            0,
                            0,
                            0,
                            0,
                            TransferFlags.POST_PENDING_TRANSFER | TransferFlags.VOID_PENDING_TRANSFER);
                case 18 ->
                    new NewTransfer(
                            id,
                            Id128.ZERO,
                            Id128.ZERO,
                            0,
                            aPending,
                            Id128.ZERO,
                            0,
                            0,
                            5,
                            0,
                            0,
                            TransferFlags.POST_PENDING_TRANSFER);
                default ->
                    new NewTransfer(
                            id,
                            Id128.ZERO,
                            Id128.ZERO,
                            0,
                            aPending,
                            Id128.ZERO,
                            0,
                            0,
                            0,
                            0,
                            0,
                            TransferFlags.VOID_PENDING_TRANSFER | TransferFlags.PENDING);
            };
        }

        private static int otherLedger(int ledger) {
            return ledger == LEDGER_A ? LEDGER_B : LEDGER_A;
        }

        private void sendTransfers(List<NewTransfer> events, String where) {
            boolean hasShortPending = events.stream()
                    .anyMatch(t -> t.hasFlag(TransferFlags.PENDING)
                            && t.timeoutSeconds() > 0
                            && t.timeoutSeconds() <= SHORT_TIMEOUT_MAX);
            List<TransferResult> expected = model.createTransfers(events);
            List<TransferResult> actual = call(where + " " + describe(events), () -> backend.createTransfers(events));
            if (hasShortPending) {
                lastShortPendingNanos = System.nanoTime();
            }
            checkResults(events, expected, actual, where);
            for (int i = 0; i < events.size(); i++) {
                NewTransfer event = events.get(i);
                TransferResult result = expected.get(i);
                resultCounts.merge(result, 1, Integer::sum);
                sentTransfers.add(event);
                if (!event.id().isZero()
                        && !event.id().isMax()
                        && seenTransferIds.putIfAbsent(event.id(), true) == null) {
                    transferIds.add(event.id());
                }
                if (result != TransferResult.OK) {
                    continue;
                }
                if (event.hasFlag(TransferFlags.PENDING)) {
                    if (event.timeoutSeconds() == 0 || event.timeoutSeconds() > SHORT_TIMEOUT_MAX) {
                        longPendings.add(
                                model.lookupTransfers(List.of(event.id())).getFirst());
                    }
                } else if (!event.hasFlag(TransferFlags.POST_PENDING_TRANSFER)
                        && !event.hasFlag(TransferFlags.VOID_PENDING_TRANSFER)) {
                    plainTransfers.add(event.id());
                }
            }
            requestLog.add("transfers " + normalize(actual));
        }

        private static String describe(List<?> events) {
            StringBuilder text = new StringBuilder("with events:");
            for (int i = 0; i < events.size(); i++) {
                text.append(String.format("%n  #%d %s", i, events.get(i)));
            }
            return text.toString();
        }

        private void disagree(String message) {
            if (strict) {
                fail(message);
            }
            if (modelDisagreements.size() < 10) { // the first ones tell; later ones are mostly their echoes
                modelDisagreements.add(message);
            }
        }

        /** Calls the backend; anything it throws fails the test with the seed and the place in the run. */
        private <T> T call(String where, Supplier<T> request) {
            try {
                return request.get();
            } catch (RuntimeException e) {
                throw new AssertionError(context(where) + ": the backend threw " + e, e);
            }
        }

        private <R> void checkResults(List<?> events, List<R> expected, List<R> actual, String where) {
            if (expected.equals(actual)) {
                return;
            }
            StringBuilder message = new StringBuilder(context(where) + ": results differ from the reference model\n");
            for (int i = 0; i < events.size(); i++) {
                R mine = i < actual.size() ? actual.get(i) : null;
                message.append(String.format(
                        "  %s #%d expected %s, got %s: %s%n",
                        Objects.equals(expected.get(i), mine) ? " " : "!", i, expected.get(i), mine, events.get(i)));
            }
            if (actual.size() != events.size()) {
                message.append("  backend answered ")
                        .append(actual.size())
                        .append(" results for ")
                        .append(events.size())
                        .append(" events\n");
            }
            disagree(message.toString());
        }

        // ----------------------------------------------------------------------------- checks

        private List<Id128> accountIds() {
            return accounts.stream().map(NewAccount::id).toList();
        }

        private void comparePostedBalances(String where) {
            compareAccounts(
                    where,
                    "posted balances differ for account %s",
                    (e, a) -> e.debitsPosted() == a.debitsPosted()
                            && e.creditsPosted() == a.creditsPosted()
                            && e.id().equals(a.id()));
            MoneyInvariants.check(backend, accountIds(), context(where));
        }

        private void finish() throws InterruptedException {
            // Resolve every pending transfer that cannot expire by itself (or not soon).
            List<NewTransfer> voids = new ArrayList<>();
            for (Transfer pending : longPendings) {
                if (model.isPending(pending.id())) {
                    voids.add(NewTransfer.voidPending(newId(), pending.id()));
                }
            }
            for (int from = 0; from < voids.size(); from += 1000) {
                List<NewTransfer> slice = voids.subList(from, Math.min(voids.size(), from + 1000));
                sendTransfers(slice, "final voids");
            }
            // Let every short pending transfer expire, in the backend (real time) and in the model.
            LedgerFixture.sleepUntil(lastShortPendingNanos
                    + Duration.ofSeconds(SHORT_TIMEOUT_MAX).toNanos()
                    + Duration.ofMillis(300).toNanos());
            modelClock[0] = Long.MAX_VALUE / 4;
            Supplier<Boolean> released = () -> backend.lookupAccounts(accountIds()).stream()
                    .allMatch(a -> a.debitsPending() == 0 && a.creditsPending() == 0);
            LedgerFixture.awaitTrue(released::get, Duration.ofSeconds(5));
            compareAllBalances("after every pending transfer was resolved or expired");
            if (sweep != null) {
                call("sweep after expiry", () -> {
                    sweep.accept(context("sweep after expiry"));
                    return null;
                });
                compareAllBalances("after sweepExpired");
            }
            MoneyInvariants.checkNothingPending(backend, accountIds(), context("end"));
            compareStoredTransfers();
        }

        private void compareAllBalances(String where) {
            compareAccounts(
                    where,
                    "account %s differs",
                    (e, a) -> balancesOf(e).equals(balancesOf(a))
                            && definitionOf(e).equals(definitionOf(a)));
        }

        /** Every account as the model and the backend hold it, one by one; {@code differs} names the account. */
        private void compareAccounts(String where, String differs, BiPredicate<Account, Account> same) {
            List<Account> expected = model.lookupAccounts(accountIds());
            List<Account> actual = call(where, () -> backend.lookupAccounts(accountIds()));
            assertThat(actual.size()).as(context(where) + ": accounts found").isEqualTo(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                Account e = expected.get(i);
                Account a = actual.get(i);
                if (!same.test(e, a)) {
                    disagree(context(where) + ": " + differs.formatted(normalize(e.id())) + "\n  model:   " + e
                            + "\n  backend: " + a);
                }
            }
        }

        private void compareStoredTransfers() {
            for (int from = 0; from < transferIds.size(); from += Ledger.BATCH_SIZE_MAX) {
                List<Id128> slice =
                        transferIds.subList(from, Math.min(transferIds.size(), from + Ledger.BATCH_SIZE_MAX));
                List<String> expected = model.lookupTransfers(slice).stream()
                        .map(this::normalize)
                        .toList();
                List<String> actual = call("stored transfers", () -> backend.lookupTransfers(slice)).stream()
                        .map(this::normalize)
                        .toList();
                if (!expected.equals(actual)) {
                    for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
                        String e = i < expected.size() ? expected.get(i) : "(none)";
                        String a = i < actual.size() ? actual.get(i) : "(none)";
                        if (!e.equals(a)) {
                            disagree(context("stored transfers") + ": transfer #" + (from + i) + " differs\n  model:   "
                                    + e + "\n  backend: " + a);
                        }
                    }
                }
            }
        }

        private List<String> finalBalances() {
            return backend.lookupAccounts(accountIds()).stream()
                    .map(a -> normalize(a.id()) + " " + balancesOf(a) + " " + definitionOf(a))
                    .toList();
        }

        private List<String> storedTransfers() {
            List<String> all = new ArrayList<>();
            for (int from = 0; from < transferIds.size(); from += Ledger.BATCH_SIZE_MAX) {
                List<Id128> slice =
                        transferIds.subList(from, Math.min(transferIds.size(), from + Ledger.BATCH_SIZE_MAX));
                backend.lookupTransfers(slice).stream().map(this::normalize).forEach(all::add);
            }
            return all;
        }

        private static LedgerContract.Balances balancesOf(Account a) {
            return new LedgerContract.Balances(
                    a.debitsPending(), a.debitsPosted(), a.creditsPending(), a.creditsPosted());
        }

        private static String definitionOf(Account a) {
            return "ledger=" + a.ledger() + " code=" + a.code() + " flags=" + a.flags() + " ud=" + a.userData128() + "/"
                    + a.userData64() + "/" + a.userData32();
        }

        /** An id as its place in this run ("#17"), so runs with different prefixes compare equal. */
        private String normalize(Id128 id) {
            return id.hi() == prefix ? "#" + id.lo() : id.toString();
        }

        private String normalize(Transfer t) {
            return normalize(t.id()) + " " + normalize(t.debitAccountId()) + "->" + normalize(t.creditAccountId())
                    + " amount="
                    + t.amount() + " pending=" + normalize(t.pendingId()) + " ud=" + t.userData128() + "/"
                    + t.userData64() + "/"
                    + t.userData32() + " timeout=" + t.timeoutSeconds() + " ledger=" + t.ledger() + " code=" + t.code()
                    + " flags=" + t.flags();
        }

        private static String normalize(List<?> results) {
            return results.toString();
        }
    }
}
