package io.pagora.testing.ledger;

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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The test oracle: a sequential, in-memory ledger written as directly as possible from TigerBeetle
 * 0.16.30's state machine ({@code src/state_machine.zig}, {@code execute_create}, {@code create_account},
 * {@code create_transfer}, {@code create_transfer_exists}, {@code post_or_void_pending_transfer},
 * {@code post_or_void_pending_transfer_exists}) as seen by a 0.16.30 client (zero amounts allowed,
 * transient failures burn the id).
 *
 * <p>It favours obviousness over speed: one synchronized method per call, an undo log for linked
 * chains, and expiry applied eagerly before every call (TigerBeetle's pulse may run a little later,
 * but a post or void at or after the expiry instant is refused in both). Time comes from a
 * {@link LongSupplier} of nanoseconds, so the randomized test can drive it by hand.
 *
 * <p>Over 400 lines on purpose: an oracle is read side by side with TigerBeetle's state machine, function for
 * function, which a split into classes would hide.
 */
public final class ReferenceLedger implements Ledger {

    private enum PendingStatus {
        PENDING,
        POSTED,
        VOIDED,
        EXPIRED
    }

    private static final class MutableAccount {
        final NewAccount definition;
        final long timestamp;
        long debitsPending;
        long debitsPosted;
        long creditsPending;
        long creditsPosted;

        MutableAccount(NewAccount definition, long timestamp) {
            this.definition = definition;
            this.timestamp = timestamp;
        }

        Account snapshot() {
            NewAccount d = definition;
            return new Account(
                    d.id(),
                    d.ledger(),
                    d.code(),
                    d.flags(),
                    debitsPending,
                    debitsPosted,
                    creditsPending,
                    creditsPosted,
                    d.userData128(),
                    d.userData64(),
                    d.userData32(),
                    timestamp);
        }

        boolean debitsExceedCredits(long amount) {
            return AccountFlags.has(definition.flags(), AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS)
                    && Math.addExact(Math.addExact(debitsPending, debitsPosted), amount) > creditsPosted;
        }

        boolean creditsExceedDebits(long amount) {
            return AccountFlags.has(definition.flags(), AccountFlags.CREDITS_MUST_NOT_EXCEED_DEBITS)
                    && Math.addExact(Math.addExact(creditsPending, creditsPosted), amount) > debitsPosted;
        }
    }

    private final LongSupplier clockNanos;
    private final Map<Id128, MutableAccount> accounts = new LinkedHashMap<>();
    private final Map<Id128, Transfer> transfers = new LinkedHashMap<>();
    private final Map<Id128, PendingStatus> pendingStatus = new HashMap<>();
    /** Ids of transfers that failed with a transient code: refused for good ("orphaned ids"). */
    private final Set<Id128> failedIds = new HashSet<>();
    /** Undo actions of the open linked chain, most recent last. */
    private final Deque<Runnable> undo = new ArrayDeque<>();

    private long lastTimestamp;

    public ReferenceLedger(LongSupplier clockNanos) {
        this.clockNanos = clockNanos;
    }

    /** A reference ledger on the wall clock (epoch nanoseconds). */
    public static ReferenceLedger onWallClock() {
        return new ReferenceLedger(() -> {
            java.time.Instant now = java.time.Instant.now();
            return now.getEpochSecond() * 1_000_000_000L + now.getNano();
        });
    }

    @Override
    public synchronized List<AccountResult> createAccounts(List<NewAccount> batch) {
        Ledger.checkBatchSize(batch.size());
        expireDue();
        return execute(
                batch,
                NewAccount::linked,
                this::createAccount,
                AccountResult.OK,
                AccountResult.LINKED_EVENT_FAILED,
                AccountResult.LINKED_EVENT_CHAIN_OPEN,
                (event, result) -> {},
                AccountResult.class);
    }

    @Override
    public synchronized List<TransferResult> createTransfers(List<NewTransfer> batch) {
        Ledger.checkBatchSize(batch.size());
        expireDue();
        return execute(
                batch,
                t -> t.hasFlag(TransferFlags.LINKED),
                this::createTransfer,
                TransferResult.OK,
                TransferResult.LINKED_EVENT_FAILED,
                TransferResult.LINKED_EVENT_CHAIN_OPEN,
                (event, result) -> {
                    if (result.isTransient()) {
                        failedIds.add(event.id()); // outside the chain's undo scope: survives its rollback
                    }
                },
                TransferResult.class);
    }

    @Override
    public synchronized List<Account> lookupAccounts(List<Id128> ids) {
        expireDue();
        List<Account> found = new ArrayList<>();
        for (Id128 id : ids) {
            MutableAccount account = accounts.get(id);
            if (account != null) {
                found.add(account.snapshot());
            }
        }
        return found;
    }

    @Override
    public synchronized List<Account> queryAccounts(int ledger, long timestampAfter, int limit) {
        Ledger.checkQueryLimit(limit);
        expireDue();
        return accounts.values().stream()
                .filter(account -> account.definition.ledger() == ledger && account.timestamp > timestampAfter)
                .sorted(Comparator.comparingLong(account -> account.timestamp))
                .limit(limit)
                .map(MutableAccount::snapshot)
                .toList();
    }

    @Override
    public synchronized List<Transfer> lookupTransfers(List<Id128> ids) {
        List<Transfer> found = new ArrayList<>();
        for (Id128 id : ids) {
            Transfer transfer = transfers.get(id);
            if (transfer != null) {
                found.add(transfer);
            }
        }
        return found;
    }

    @Override
    public synchronized List<Transfer> accountTransfers(Id128 account, Sides sides, long timestampAfter, int limit) {
        Ledger.checkQueryLimit(limit);
        return transfers.values().stream()
                .filter(transfer -> transfer.timestamp() > timestampAfter)
                .filter(transfer -> (sides != Sides.CREDITS
                                && transfer.debitAccountId().equals(account))
                        || (sides != Sides.DEBITS && transfer.creditAccountId().equals(account)))
                .sorted(Comparator.comparingLong(Transfer::timestamp))
                .limit(limit)
                .toList();
    }

    @Override
    public String backendName() {
        return "reference";
    }

    @Override
    public void close() {}

    /** Whether pending transfer {@code id} is still pending (not posted, voided or expired). */
    public synchronized boolean isPending(Id128 id) {
        expireDue();
        return pendingStatus.get(id) == PendingStatus.PENDING;
    }

    /** Whether {@code id} was burned by a transient failure. */
    public synchronized boolean hasFailed(Id128 id) {
        return failedIds.contains(id);
    }

    public synchronized boolean transferExists(Id128 id) {
        return transfers.containsKey(id);
    }

    public synchronized boolean accountExists(Id128 id) {
        return accounts.containsKey(id);
    }

    // ---------------------------------------------------------------------------------------------
    // execute_create: ordering, linked chains, rollback

    private interface Apply<E, R> {
        R apply(E event, long timestamp);
    }

    private interface AfterFailure<E, R> {
        void accept(E event, R result);
    }

    private <E, R extends Enum<R>> List<R> execute(
            List<E> events,
            Function<E, Boolean> linked,
            Apply<E, R> apply,
            R ok,
            R linkedEventFailed,
            R chainOpen,
            AfterFailure<E, R> afterFailure,
            Class<R> type) {
        @SuppressWarnings("unchecked")
        R[] results = (R[]) java.lang.reflect.Array.newInstance(type, events.size());
        int chain = -1;
        boolean chainBroken = false;
        long timestampBase = Math.max(lastTimestamp, clockNanos.getAsLong() - events.size());
        for (int index = 0; index < events.size(); index++) {
            E event = events.get(index);
            boolean isLinked = linked.apply(event);
            R result = null;
            if (isLinked) {
                if (chain < 0) {
                    chain = index;
                    undo.clear();
                }
                if (index == events.size() - 1) {
                    result = chainOpen;
                }
            }
            if (result == null && chainBroken) {
                result = linkedEventFailed;
            }
            if (result == null) {
                long timestamp = timestampBase + index + 1;
                result = apply.apply(event, timestamp);
                if (result == ok) {
                    lastTimestamp = timestamp;
                }
            }
            if (result != ok) {
                if (chain >= 0 && !chainBroken) {
                    chainBroken = true;
                    while (!undo.isEmpty()) {
                        undo.removeLast().run();
                    }
                    Arrays.fill(results, chain, index, linkedEventFailed);
                }
                results[index] = result;
                afterFailure.accept(event, result);
            } else {
                results[index] = ok;
            }
            if (chain >= 0 && (!isLinked || result == chainOpen)) {
                chain = -1;
                chainBroken = false;
                undo.clear();
            }
        }
        lastTimestamp = Math.max(lastTimestamp, timestampBase + events.size());
        undo.clear();
        return List.of(results);
    }

    // ---------------------------------------------------------------------------------------------
    // create_account

    private AccountResult createAccount(NewAccount a, long timestamp) {
        if (a.id().isZero()) return AccountResult.ID_MUST_NOT_BE_ZERO;
        if (a.id().isMax()) return AccountResult.ID_MUST_NOT_BE_INT_MAX;
        MutableAccount existing = accounts.get(a.id());
        if (existing != null) return accountExists(a, existing.definition);
        if (AccountFlags.has(a.flags(), AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS)
                && AccountFlags.has(a.flags(), AccountFlags.CREDITS_MUST_NOT_EXCEED_DEBITS)) {
            return AccountResult.FLAGS_ARE_MUTUALLY_EXCLUSIVE;
        }
        if (a.ledger() == 0) return AccountResult.LEDGER_MUST_NOT_BE_ZERO;
        if (a.code() == 0) return AccountResult.CODE_MUST_NOT_BE_ZERO;
        accounts.put(a.id(), new MutableAccount(a, timestamp));
        undo.addLast(() -> accounts.remove(a.id()));
        return AccountResult.OK;
    }

    private static AccountResult accountExists(NewAccount a, NewAccount e) {
        if (a.flags() != e.flags()) return AccountResult.EXISTS_WITH_DIFFERENT_FLAGS;
        if (!a.userData128().equals(e.userData128())) return AccountResult.EXISTS_WITH_DIFFERENT_USER_DATA_128;
        if (a.userData64() != e.userData64()) return AccountResult.EXISTS_WITH_DIFFERENT_USER_DATA_64;
        if (a.userData32() != e.userData32()) return AccountResult.EXISTS_WITH_DIFFERENT_USER_DATA_32;
        if (a.ledger() != e.ledger()) return AccountResult.EXISTS_WITH_DIFFERENT_LEDGER;
        if (a.code() != e.code()) return AccountResult.EXISTS_WITH_DIFFERENT_CODE;
        return AccountResult.EXISTS;
    }

    // ---------------------------------------------------------------------------------------------
    // create_transfer

    private TransferResult createTransfer(NewTransfer t, long timestamp) {
        if (t.id().isZero()) return TransferResult.ID_MUST_NOT_BE_ZERO;
        if (t.id().isMax()) return TransferResult.ID_MUST_NOT_BE_INT_MAX;
        Transfer existing = transfers.get(t.id());
        if (existing != null) return transferExists(t, existing);
        if (failedIds.contains(t.id())) return TransferResult.ID_ALREADY_FAILED;

        if (t.hasFlag(TransferFlags.POST_PENDING_TRANSFER) || t.hasFlag(TransferFlags.VOID_PENDING_TRANSFER)) {
            return postOrVoid(t, timestamp);
        }

        if (t.debitAccountId().isZero()) return TransferResult.DEBIT_ACCOUNT_ID_MUST_NOT_BE_ZERO;
        if (t.debitAccountId().isMax()) return TransferResult.DEBIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX;
        if (t.creditAccountId().isZero()) return TransferResult.CREDIT_ACCOUNT_ID_MUST_NOT_BE_ZERO;
        if (t.creditAccountId().isMax()) return TransferResult.CREDIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX;
        if (t.creditAccountId().equals(t.debitAccountId())) return TransferResult.ACCOUNTS_MUST_BE_DIFFERENT;
        if (!t.pendingId().isZero()) return TransferResult.PENDING_ID_MUST_BE_ZERO;
        boolean pending = t.hasFlag(TransferFlags.PENDING);
        if (!pending && t.timeoutSeconds() != 0) return TransferResult.TIMEOUT_RESERVED_FOR_PENDING_TRANSFER;
        if (t.ledger() == 0) return TransferResult.LEDGER_MUST_NOT_BE_ZERO;
        if (t.code() == 0) return TransferResult.CODE_MUST_NOT_BE_ZERO;

        MutableAccount dr = accounts.get(t.debitAccountId());
        if (dr == null) return TransferResult.DEBIT_ACCOUNT_NOT_FOUND;
        MutableAccount cr = accounts.get(t.creditAccountId());
        if (cr == null) return TransferResult.CREDIT_ACCOUNT_NOT_FOUND;
        if (dr.definition.ledger() != cr.definition.ledger()) return TransferResult.ACCOUNTS_MUST_HAVE_THE_SAME_LEDGER;
        if (t.ledger() != dr.definition.ledger()) return TransferResult.TRANSFER_MUST_HAVE_THE_SAME_LEDGER_AS_ACCOUNTS;

        long amount = t.amount();
        // (Overflow checks are unreachable with long amounts well below 2^63 and are not modelled.)
        if (dr.debitsExceedCredits(amount)) return TransferResult.EXCEEDS_CREDITS;
        if (cr.creditsExceedDebits(amount)) return TransferResult.EXCEEDS_DEBITS;

        Transfer stored = new Transfer(
                t.id(),
                t.debitAccountId(),
                t.creditAccountId(),
                amount,
                t.pendingId(),
                t.userData128(),
                t.userData64(),
                t.userData32(),
                t.timeoutSeconds(),
                t.ledger(),
                t.code(),
                t.flags(),
                timestamp);
        insertTransfer(stored);
        if (pending) {
            setStatus(t.id(), PendingStatus.PENDING);
            addBalances(dr, cr, amount, 0);
        } else {
            addBalances(dr, cr, 0, amount);
        }
        return TransferResult.OK;
    }

    private TransferResult transferExists(NewTransfer t, Transfer e) {
        if (t.flags() != e.flags()) return TransferResult.EXISTS_WITH_DIFFERENT_FLAGS;
        if (!t.pendingId().equals(e.pendingId())) return TransferResult.EXISTS_WITH_DIFFERENT_PENDING_ID;
        if (t.timeoutSeconds() != e.timeoutSeconds()) return TransferResult.EXISTS_WITH_DIFFERENT_TIMEOUT;
        if (t.hasFlag(TransferFlags.POST_PENDING_TRANSFER) || t.hasFlag(TransferFlags.VOID_PENDING_TRANSFER)) {
            Transfer p = transfers.get(t.pendingId());
            return postOrVoidExists(t, e, p);
        }
        if (!t.debitAccountId().equals(e.debitAccountId()))
            return TransferResult.EXISTS_WITH_DIFFERENT_DEBIT_ACCOUNT_ID;
        if (!t.creditAccountId().equals(e.creditAccountId()))
            return TransferResult.EXISTS_WITH_DIFFERENT_CREDIT_ACCOUNT_ID;
        if (t.amount() != e.amount()) return TransferResult.EXISTS_WITH_DIFFERENT_AMOUNT;
        if (!t.userData128().equals(e.userData128())) return TransferResult.EXISTS_WITH_DIFFERENT_USER_DATA_128;
        if (t.userData64() != e.userData64()) return TransferResult.EXISTS_WITH_DIFFERENT_USER_DATA_64;
        if (t.userData32() != e.userData32()) return TransferResult.EXISTS_WITH_DIFFERENT_USER_DATA_32;
        if (t.ledger() != e.ledger()) return TransferResult.EXISTS_WITH_DIFFERENT_LEDGER;
        if (t.code() != e.code()) return TransferResult.EXISTS_WITH_DIFFERENT_CODE;
        return TransferResult.EXISTS;
    }

    private static TransferResult postOrVoidExists(NewTransfer t, Transfer e, Transfer p) {
        if (!t.debitAccountId().isZero() && !t.debitAccountId().equals(e.debitAccountId())) {
            return TransferResult.EXISTS_WITH_DIFFERENT_DEBIT_ACCOUNT_ID;
        }
        if (!t.creditAccountId().isZero() && !t.creditAccountId().equals(e.creditAccountId())) {
            return TransferResult.EXISTS_WITH_DIFFERENT_CREDIT_ACCOUNT_ID;
        }
        if (t.hasFlag(TransferFlags.VOID_PENDING_TRANSFER) && t.amount() == 0) {
            if (e.amount() != p.amount()) return TransferResult.EXISTS_WITH_DIFFERENT_AMOUNT;
        } else if (t.amount() != e.amount()) {
            return TransferResult.EXISTS_WITH_DIFFERENT_AMOUNT;
        }
        if (!(t.userData128().isZero()
                ? e.userData128().equals(p.userData128())
                : t.userData128().equals(e.userData128()))) {
            return TransferResult.EXISTS_WITH_DIFFERENT_USER_DATA_128;
        }
        if ((t.userData64() == 0 ? p.userData64() : t.userData64()) != e.userData64()) {
            return TransferResult.EXISTS_WITH_DIFFERENT_USER_DATA_64;
        }
        if ((t.userData32() == 0 ? p.userData32() : t.userData32()) != e.userData32()) {
            return TransferResult.EXISTS_WITH_DIFFERENT_USER_DATA_32;
        }
        if (t.ledger() != 0 && t.ledger() != e.ledger()) return TransferResult.EXISTS_WITH_DIFFERENT_LEDGER;
        if (t.code() != 0 && t.code() != e.code()) return TransferResult.EXISTS_WITH_DIFFERENT_CODE;
        return TransferResult.EXISTS;
    }

    private TransferResult postOrVoid(NewTransfer t, long timestamp) {
        boolean post = t.hasFlag(TransferFlags.POST_PENDING_TRANSFER);
        boolean voiding = t.hasFlag(TransferFlags.VOID_PENDING_TRANSFER);
        if (post && voiding) return TransferResult.FLAGS_ARE_MUTUALLY_EXCLUSIVE;
        if (t.hasFlag(TransferFlags.PENDING)) return TransferResult.FLAGS_ARE_MUTUALLY_EXCLUSIVE;
        if (t.pendingId().isZero()) return TransferResult.PENDING_ID_MUST_NOT_BE_ZERO;
        if (t.pendingId().isMax()) return TransferResult.PENDING_ID_MUST_NOT_BE_INT_MAX;
        if (t.pendingId().equals(t.id())) return TransferResult.PENDING_ID_MUST_BE_DIFFERENT;
        if (t.timeoutSeconds() != 0) return TransferResult.TIMEOUT_RESERVED_FOR_PENDING_TRANSFER;

        Transfer p = transfers.get(t.pendingId());
        if (p == null) return TransferResult.PENDING_TRANSFER_NOT_FOUND;
        if (!p.hasFlag(TransferFlags.PENDING)) return TransferResult.PENDING_TRANSFER_NOT_PENDING;

        if (!t.debitAccountId().isZero() && !t.debitAccountId().equals(p.debitAccountId())) {
            return TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_DEBIT_ACCOUNT_ID;
        }
        if (!t.creditAccountId().isZero() && !t.creditAccountId().equals(p.creditAccountId())) {
            return TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_CREDIT_ACCOUNT_ID;
        }
        if (t.ledger() != 0 && t.ledger() != p.ledger()) return TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_LEDGER;
        if (t.code() != 0 && t.code() != p.code()) return TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_CODE;

        long amount = voiding ? (t.amount() > 0 ? t.amount() : p.amount()) : t.amount();
        if (amount > p.amount()) return TransferResult.EXCEEDS_PENDING_TRANSFER_AMOUNT;
        if (voiding && amount < p.amount()) return TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_AMOUNT;

        switch (pendingStatus.get(p.id())) {
            case PENDING -> {}
            case POSTED -> {
                return TransferResult.PENDING_TRANSFER_ALREADY_POSTED;
            }
            case VOIDED -> {
                return TransferResult.PENDING_TRANSFER_ALREADY_VOIDED;
            }
            case EXPIRED -> {
                return TransferResult.PENDING_TRANSFER_EXPIRED;
            }
        }
        if (p.timeoutSeconds() > 0 && expiresAt(p) <= timestamp) return TransferResult.PENDING_TRANSFER_EXPIRED;

        Transfer stored = new Transfer(
                t.id(),
                p.debitAccountId(),
                p.creditAccountId(),
                amount,
                t.pendingId(),
                t.userData128().isZero() ? p.userData128() : t.userData128(),
                t.userData64() == 0 ? p.userData64() : t.userData64(),
                t.userData32() == 0 ? p.userData32() : t.userData32(),
                0,
                p.ledger(),
                p.code(),
                t.flags(),
                timestamp);
        insertTransfer(stored);
        setStatus(p.id(), post ? PendingStatus.POSTED : PendingStatus.VOIDED);
        MutableAccount dr = accounts.get(p.debitAccountId());
        MutableAccount cr = accounts.get(p.creditAccountId());
        addBalances(dr, cr, -p.amount(), post ? amount : 0);
        return TransferResult.OK;
    }

    private static long expiresAt(Transfer pending) {
        return pending.timestamp() + pending.timeoutSeconds() * 1_000_000_000L;
    }

    /** Releases every pending transfer whose timeout has passed, as TigerBeetle's expiry pulse does. */
    private void expireDue() {
        long now = clockNanos.getAsLong();
        for (Map.Entry<Id128, PendingStatus> entry : pendingStatus.entrySet()) {
            if (entry.getValue() != PendingStatus.PENDING) {
                continue;
            }
            Transfer p = transfers.get(entry.getKey());
            if (p.timeoutSeconds() > 0 && expiresAt(p) <= now) {
                entry.setValue(PendingStatus.EXPIRED);
                MutableAccount dr = accounts.get(p.debitAccountId());
                MutableAccount cr = accounts.get(p.creditAccountId());
                dr.debitsPending = Math.subtractExact(dr.debitsPending, p.amount());
                cr.creditsPending = Math.subtractExact(cr.creditsPending, p.amount());
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // mutations, each with its undo action

    private void insertTransfer(Transfer transfer) {
        transfers.put(transfer.id(), transfer);
        undo.addLast(() -> transfers.remove(transfer.id()));
    }

    private void setStatus(Id128 pendingId, PendingStatus status) {
        PendingStatus before = pendingStatus.put(pendingId, status);
        undo.addLast(() -> {
            if (before == null) {
                pendingStatus.remove(pendingId);
            } else {
                pendingStatus.put(pendingId, before);
            }
        });
    }

    private void addBalances(MutableAccount dr, MutableAccount cr, long pendingDelta, long postedDelta) {
        dr.debitsPending = Math.addExact(dr.debitsPending, pendingDelta);
        cr.creditsPending = Math.addExact(cr.creditsPending, pendingDelta);
        dr.debitsPosted = Math.addExact(dr.debitsPosted, postedDelta);
        cr.creditsPosted = Math.addExact(cr.creditsPosted, postedDelta);
        undo.addLast(() -> {
            dr.debitsPending -= pendingDelta;
            cr.creditsPending -= pendingDelta;
            dr.debitsPosted -= postedDelta;
            cr.creditsPosted -= postedDelta;
        });
    }
}
