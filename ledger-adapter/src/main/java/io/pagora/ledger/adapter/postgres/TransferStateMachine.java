package io.pagora.ledger.adapter.postgres;

import static io.pagora.ledger.port.TransferResult.*;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferFlags;
import io.pagora.ledger.port.TransferResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * TigerBeetle 0.16.30's {@code create_transfers}, applied in memory to one batch's locked state.
 *
 * <p>The checks and their order follow TigerBeetle's state machine, so both backends answer the same
 * code for the same request. Linked chains run in a scope: a broken chain is undone from an undo log
 * and its members answer {@code linked_event_failed}. The caller loads every account and transfer the
 * batch can touch (accounts locked), runs this, then writes back what changed — one round trip per
 * kind of change, not per transfer.
 *
 * <p>Not single-use-safe: one instance per batch attempt, confined to one thread.
 */
final class TransferStateMachine {

    private final Map<Id128, AccountRow> accounts;
    private final Map<Id128, StoredTransfer> transfers;
    private final Set<Id128> failedIds;
    private final long batchTimestampNs;

    private final LinkedHashMap<Id128, StoredTransfer> created = new LinkedHashMap<>();
    private final Map<Id128, TransferResult> newlyFailed = new HashMap<>();
    private final List<Runnable> undo = new ArrayList<>();

    /**
     * @param accounts every account the batch can touch, locked by the caller; missing = not found
     * @param transfers existing transfers with the batch's ids and pending ids; missing = not found
     * @param failedIds ids that earlier failed with a transient result
     * @param batchTimestampNs the ledger clock for this batch; event i gets {@code batch − n + i + 1}
     */
    TransferStateMachine(
            Map<Id128, AccountRow> accounts,
            Map<Id128, StoredTransfer> transfers,
            Set<Id128> failedIds,
            long batchTimestampNs) {
        this.accounts = accounts;
        this.transfers = transfers;
        this.failedIds = failedIds;
        this.batchTimestampNs = batchTimestampNs;
    }

    List<TransferResult> execute(List<NewTransfer> events) {
        TransferResult[] results = new TransferResult[events.size()];
        int chainStart = -1;
        boolean chainBroken = false;
        for (int index = 0; index < events.size(); index++) {
            NewTransfer event = events.get(index);
            boolean linked = event.hasFlag(TransferFlags.LINKED);
            TransferResult result;
            if (linked && chainStart < 0) {
                chainStart = index;
                Check.that(!chainBroken, "a new chain starts unbroken");
                undo.clear();
            }
            if (linked && index == events.size() - 1) {
                result = LINKED_EVENT_CHAIN_OPEN;
            } else if (chainBroken) {
                result = LINKED_EVENT_FAILED;
            } else {
                long timestampNs = batchTimestampNs - events.size() + index + 1;
                result = createTransfer(event, timestampNs);
            }
            if (result != OK) {
                if (chainStart >= 0 && !chainBroken) {
                    chainBroken = true;
                    rollbackScope();
                    for (int member = chainStart; member < index; member++) {
                        results[member] = LINKED_EVENT_FAILED;
                    }
                }
                results[index] = result;
                if (result.isTransient()) {
                    // As TigerBeetle: a transient failure burns the id, even inside a rolled-back chain.
                    newlyFailed.putIfAbsent(event.id(), result);
                }
            } else {
                results[index] = OK;
            }
            if (chainStart >= 0 && (!linked || result == LINKED_EVENT_CHAIN_OPEN)) {
                chainStart = -1;
                chainBroken = false;
                undo.clear();
            }
            if (chainStart < 0) {
                undo.clear();
            }
        }
        Check.that(chainStart < 0, "every chain closed at the end of the batch");
        return List.of(results);
    }

    /** Transfers created by this batch, in creation order. */
    List<StoredTransfer> createdTransfers() {
        return List.copyOf(created.values());
    }

    /** Pre-existing pending transfers whose state this batch changed. */
    List<StoredTransfer> resolvedPending() {
        List<StoredTransfer> changed = new ArrayList<>();
        for (StoredTransfer stored : transfers.values()) {
            if (!stored.created && stored.status != stored.statusLoaded) {
                changed.add(stored);
            }
        }
        return changed;
    }

    Map<Id128, TransferResult> newlyFailedIds() {
        return newlyFailed;
    }

    private void rollbackScope() {
        for (int i = undo.size() - 1; i >= 0; i--) {
            undo.get(i).run();
        }
        undo.clear();
    }

    private TransferResult createTransfer(NewTransfer t, long timestampNs) {
        if (t.id().isZero()) return ID_MUST_NOT_BE_ZERO;
        if (t.id().isMax()) return ID_MUST_NOT_BE_INT_MAX;

        StoredTransfer existing = transfers.get(t.id());
        if (existing != null) return exists(t, existing.transfer);
        if (failedIds.contains(t.id()) || newlyFailed.containsKey(t.id())) return ID_ALREADY_FAILED;

        if (t.hasFlag(TransferFlags.POST_PENDING_TRANSFER) || t.hasFlag(TransferFlags.VOID_PENDING_TRANSFER)) {
            return postOrVoidPendingTransfer(t, timestampNs);
        }

        if (t.debitAccountId().isZero()) return DEBIT_ACCOUNT_ID_MUST_NOT_BE_ZERO;
        if (t.debitAccountId().isMax()) return DEBIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX;
        if (t.creditAccountId().isZero()) return CREDIT_ACCOUNT_ID_MUST_NOT_BE_ZERO;
        if (t.creditAccountId().isMax()) return CREDIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX;
        if (t.creditAccountId().equals(t.debitAccountId())) return ACCOUNTS_MUST_BE_DIFFERENT;

        if (!t.pendingId().isZero()) return PENDING_ID_MUST_BE_ZERO;
        boolean pending = t.hasFlag(TransferFlags.PENDING);
        if (!pending && t.timeoutSeconds() != 0) return TIMEOUT_RESERVED_FOR_PENDING_TRANSFER;

        if (t.ledger() == 0) return LEDGER_MUST_NOT_BE_ZERO;
        if (t.code() == 0) return CODE_MUST_NOT_BE_ZERO;

        AccountRow dr = accounts.get(t.debitAccountId());
        if (dr == null) return DEBIT_ACCOUNT_NOT_FOUND;
        AccountRow cr = accounts.get(t.creditAccountId());
        if (cr == null) return CREDIT_ACCOUNT_NOT_FOUND;

        if (dr.ledger != cr.ledger) return ACCOUNTS_MUST_HAVE_THE_SAME_LEDGER;
        if (t.ledger() != dr.ledger) return TRANSFER_MUST_HAVE_THE_SAME_LEDGER_AS_ACCOUNTS;

        long amount = t.amount();
        // TigerBeetle checks u128 overflow; this port's balances are signed 64-bit, so it overflows earlier.
        if (pending && overflows(amount, dr.debitsPending)) return OVERFLOWS_DEBITS_PENDING;
        if (pending && overflows(amount, cr.creditsPending)) return OVERFLOWS_CREDITS_PENDING;
        if (overflows(amount, dr.debitsPosted)) return OVERFLOWS_DEBITS_POSTED;
        if (overflows(amount, cr.creditsPosted)) return OVERFLOWS_CREDITS_POSTED;
        if (overflows(amount, dr.debitsPending, dr.debitsPosted)) return OVERFLOWS_DEBITS;
        if (overflows(amount, cr.creditsPending, cr.creditsPosted)) return OVERFLOWS_CREDITS;

        if (dr.debitsExceedCredits(amount)) return EXCEEDS_CREDITS;
        if (cr.creditsExceedDebits(amount)) return EXCEEDS_DEBITS;

        Transfer stored = new Transfer(
                t.id(),
                t.debitAccountId(),
                t.creditAccountId(),
                amount,
                Id128.ZERO,
                t.userData128(),
                t.userData64(),
                t.userData32(),
                t.timeoutSeconds(),
                t.ledger(),
                t.code(),
                t.flags(),
                timestampNs);
        insert(new StoredTransfer(
                stored,
                pending ? StoredTransfer.expiresAt(timestampNs, t.timeoutSeconds()) : StoredTransfer.NEVER,
                pending ? StoredTransfer.PENDING : StoredTransfer.NOT_PENDING,
                true));
        if (pending) {
            adjust(dr, amount, 0, 0, 0);
            adjust(cr, 0, 0, amount, 0);
        } else {
            adjust(dr, 0, amount, 0, 0);
            adjust(cr, 0, 0, 0, amount);
        }
        return OK;
    }

    private TransferResult postOrVoidPendingTransfer(NewTransfer t, long timestampNs) {
        boolean post = t.hasFlag(TransferFlags.POST_PENDING_TRANSFER);
        boolean voiding = t.hasFlag(TransferFlags.VOID_PENDING_TRANSFER);
        if (post && voiding) return FLAGS_ARE_MUTUALLY_EXCLUSIVE;
        if (t.hasFlag(TransferFlags.PENDING)) return FLAGS_ARE_MUTUALLY_EXCLUSIVE;

        if (t.pendingId().isZero()) return PENDING_ID_MUST_NOT_BE_ZERO;
        if (t.pendingId().isMax()) return PENDING_ID_MUST_NOT_BE_INT_MAX;
        if (t.pendingId().equals(t.id())) return PENDING_ID_MUST_BE_DIFFERENT;
        if (t.timeoutSeconds() != 0) return TIMEOUT_RESERVED_FOR_PENDING_TRANSFER;

        StoredTransfer pendingRow = transfers.get(t.pendingId());
        if (pendingRow == null) return PENDING_TRANSFER_NOT_FOUND;
        Transfer p = pendingRow.transfer;
        if (!p.hasFlag(TransferFlags.PENDING)) return PENDING_TRANSFER_NOT_PENDING;

        AccountRow dr = accounts.get(p.debitAccountId());
        AccountRow cr = accounts.get(p.creditAccountId());
        Check.that(dr != null && cr != null, "the accounts of pending transfer %s are loaded", p.id());

        if (!t.debitAccountId().isZero() && !t.debitAccountId().equals(p.debitAccountId())) {
            return PENDING_TRANSFER_HAS_DIFFERENT_DEBIT_ACCOUNT_ID;
        }
        if (!t.creditAccountId().isZero() && !t.creditAccountId().equals(p.creditAccountId())) {
            return PENDING_TRANSFER_HAS_DIFFERENT_CREDIT_ACCOUNT_ID;
        }
        if (t.ledger() != 0 && t.ledger() != p.ledger()) return PENDING_TRANSFER_HAS_DIFFERENT_LEDGER;
        if (t.code() != 0 && t.code() != p.code()) return PENDING_TRANSFER_HAS_DIFFERENT_CODE;

        // 0.16 semantics: a void of 0 voids the whole amount; a post moves exactly the amount given.
        long amount = voiding && t.amount() == 0 ? p.amount() : t.amount();
        if (amount > p.amount()) return EXCEEDS_PENDING_TRANSFER_AMOUNT;
        if (voiding && amount < p.amount()) return PENDING_TRANSFER_HAS_DIFFERENT_AMOUNT;

        switch (pendingRow.status) {
            case StoredTransfer.PENDING -> {}
            case StoredTransfer.POSTED -> {
                return PENDING_TRANSFER_ALREADY_POSTED;
            }
            case StoredTransfer.VOIDED -> {
                return PENDING_TRANSFER_ALREADY_VOIDED;
            }
            case StoredTransfer.EXPIRED -> {
                return PENDING_TRANSFER_EXPIRED;
            }
            default ->
                throw new Check.InvariantViolation("pending transfer " + p.id() + " has status " + pendingRow.status);
        }
        if (pendingRow.expiresAtNs <= timestampNs) return PENDING_TRANSFER_EXPIRED;

        Transfer stored = new Transfer(
                t.id(),
                p.debitAccountId(),
                p.creditAccountId(),
                amount,
                t.pendingId(),
                t.userData128().isZero() ? p.userData128() : t.userData128(),
                t.userData64() != 0 ? t.userData64() : p.userData64(),
                t.userData32() != 0 ? t.userData32() : p.userData32(),
                0,
                p.ledger(),
                p.code(),
                t.flags(),
                timestampNs);
        insert(new StoredTransfer(stored, StoredTransfer.NEVER, StoredTransfer.NOT_PENDING, true));
        setStatus(pendingRow, post ? StoredTransfer.POSTED : StoredTransfer.VOIDED);
        adjust(dr, -p.amount(), post ? amount : 0, 0, 0);
        adjust(cr, 0, 0, -p.amount(), post ? amount : 0);
        return OK;
    }

    private TransferResult exists(NewTransfer t, Transfer e) {
        if (t.flags() != e.flags()) return EXISTS_WITH_DIFFERENT_FLAGS;
        if (!t.pendingId().equals(e.pendingId())) return EXISTS_WITH_DIFFERENT_PENDING_ID;
        if (t.timeoutSeconds() != e.timeoutSeconds()) return EXISTS_WITH_DIFFERENT_TIMEOUT;
        if (t.hasFlag(TransferFlags.POST_PENDING_TRANSFER) || t.hasFlag(TransferFlags.VOID_PENDING_TRANSFER)) {
            StoredTransfer p = transfers.get(t.pendingId());
            Check.that(p != null, "the pending transfer of existing %s is loaded", e.id());
            return postOrVoidExists(t, e, p.transfer);
        }
        if (!t.debitAccountId().equals(e.debitAccountId())) return EXISTS_WITH_DIFFERENT_DEBIT_ACCOUNT_ID;
        if (!t.creditAccountId().equals(e.creditAccountId())) return EXISTS_WITH_DIFFERENT_CREDIT_ACCOUNT_ID;
        if (t.amount() != e.amount()) return EXISTS_WITH_DIFFERENT_AMOUNT;
        if (!t.userData128().equals(e.userData128())) return EXISTS_WITH_DIFFERENT_USER_DATA_128;
        if (t.userData64() != e.userData64()) return EXISTS_WITH_DIFFERENT_USER_DATA_64;
        if (t.userData32() != e.userData32()) return EXISTS_WITH_DIFFERENT_USER_DATA_32;
        if (t.ledger() != e.ledger()) return EXISTS_WITH_DIFFERENT_LEDGER;
        if (t.code() != e.code()) return EXISTS_WITH_DIFFERENT_CODE;
        return EXISTS;
    }

    private static TransferResult postOrVoidExists(NewTransfer t, Transfer e, Transfer p) {
        if (!t.debitAccountId().isZero() && !t.debitAccountId().equals(e.debitAccountId())) {
            return EXISTS_WITH_DIFFERENT_DEBIT_ACCOUNT_ID;
        }
        if (!t.creditAccountId().isZero() && !t.creditAccountId().equals(e.creditAccountId())) {
            return EXISTS_WITH_DIFFERENT_CREDIT_ACCOUNT_ID;
        }
        if (t.hasFlag(TransferFlags.VOID_PENDING_TRANSFER) && t.amount() == 0) {
            if (e.amount() != p.amount()) return EXISTS_WITH_DIFFERENT_AMOUNT;
        } else if (t.amount() != e.amount()) {
            return EXISTS_WITH_DIFFERENT_AMOUNT;
        }
        if (!(t.userData128().isZero() ? p.userData128() : t.userData128()).equals(e.userData128())) {
            return EXISTS_WITH_DIFFERENT_USER_DATA_128;
        }
        if ((t.userData64() == 0 ? p.userData64() : t.userData64()) != e.userData64()) {
            return EXISTS_WITH_DIFFERENT_USER_DATA_64;
        }
        if ((t.userData32() == 0 ? p.userData32() : t.userData32()) != e.userData32()) {
            return EXISTS_WITH_DIFFERENT_USER_DATA_32;
        }
        if (t.ledger() != 0 && t.ledger() != e.ledger()) return EXISTS_WITH_DIFFERENT_LEDGER;
        if (t.code() != 0 && t.code() != e.code()) return EXISTS_WITH_DIFFERENT_CODE;
        return EXISTS;
    }

    private void insert(StoredTransfer row) {
        Id128 id = row.transfer.id();
        transfers.put(id, row);
        created.put(id, row);
        undo.add(() -> {
            transfers.remove(id);
            created.remove(id);
        });
    }

    private void setStatus(StoredTransfer row, short status) {
        short previous = row.status;
        row.status = status;
        undo.add(() -> row.status = previous);
    }

    private void adjust(
            AccountRow row, long debitsPending, long debitsPosted, long creditsPending, long creditsPosted) {
        boolean wasDirty = row.dirty;
        row.debitsPending = Math.addExact(row.debitsPending, debitsPending);
        row.debitsPosted = Math.addExact(row.debitsPosted, debitsPosted);
        row.creditsPending = Math.addExact(row.creditsPending, creditsPending);
        row.creditsPosted = Math.addExact(row.creditsPosted, creditsPosted);
        row.dirty = true;
        Check.that(
                row.debitsPending >= 0 && row.creditsPending >= 0, "pending balances of %s stay non-negative", row.id);
        undo.add(() -> {
            row.debitsPending -= debitsPending;
            row.debitsPosted -= debitsPosted;
            row.creditsPending -= creditsPending;
            row.creditsPosted -= creditsPosted;
            row.dirty = wasDirty;
        });
    }

    private static boolean overflows(long... terms) {
        long sum = 0;
        for (long term : terms) {
            sum += term;
            if (sum < 0) {
                return true;
            }
        }
        return false;
    }
}
