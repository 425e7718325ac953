package io.pagora.ledger.port;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import java.util.Objects;

/**
 * A request to create a transfer, with TigerBeetle 0.16.30 semantics.
 *
 * <ul>
 *   <li>A plain transfer moves {@code amount} into posted balances at once.
 *   <li>A {@link TransferFlags#PENDING} transfer reserves {@code amount} into pending balances; with
 *       {@code timeoutSeconds > 0} it expires (releases) that long after its ledger timestamp.
 *   <li>A {@link TransferFlags#POST_PENDING_TRANSFER} or {@link TransferFlags#VOID_PENDING_TRANSFER}
 *       transfer names the pending one in {@code pendingId}; zero accounts/ledger/code mean "as the
 *       pending transfer". Posting moves exactly {@code amount} (0.16 semantics: 0 posts 0); voiding
 *       with {@code amount} 0 releases the whole pending amount.
 * </ul>
 */
public record NewTransfer(
        Id128 id,
        Id128 debitAccountId,
        Id128 creditAccountId,
        long amount,
        Id128 pendingId,
        Id128 userData128,
        long userData64,
        int userData32,
        int timeoutSeconds,
        int ledger,
        int code,
        int flags) {

    public NewTransfer {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(debitAccountId, "debitAccountId");
        Objects.requireNonNull(creditAccountId, "creditAccountId");
        Objects.requireNonNull(pendingId, "pendingId");
        Objects.requireNonNull(userData128, "userData128");
        Check.that(amount >= 0, "amount must not be negative: %d", amount);
        Check.that(timeoutSeconds >= 0, "timeout is a u32 of seconds, kept below 2^31: %d", timeoutSeconds);
        Check.that(code >= 0 && code <= 0xFFFF, "transfer code is a u16: %d", code);
        Check.that(
                (flags & ~TransferFlags.SUPPORTED) == 0,
                "unsupported transfer flags %s",
                Integer.toBinaryString(flags));
    }

    /** A transfer posted at once. */
    public static NewTransfer posted(
            Id128 id, Id128 debit, Id128 credit, long amount, int ledger, int code, Id128 userData128) {
        return new NewTransfer(
                id, debit, credit, amount, Id128.ZERO, userData128, 0, 0, 0, ledger, code, TransferFlags.NONE);
    }

    /** A two-phase transfer's first phase: reserve {@code amount} for at most {@code timeoutSeconds}. */
    public static NewTransfer pending(
            Id128 id,
            Id128 debit,
            Id128 credit,
            long amount,
            int timeoutSeconds,
            int ledger,
            int code,
            Id128 userData128) {
        return new NewTransfer(
                id,
                debit,
                credit,
                amount,
                Id128.ZERO,
                userData128,
                0,
                0,
                timeoutSeconds,
                ledger,
                code,
                TransferFlags.PENDING);
    }

    /** Posts {@code amount} of pending transfer {@code pendingId}. */
    public static NewTransfer post(Id128 id, Id128 pendingId, long amount) {
        return new NewTransfer(
                id,
                Id128.ZERO,
                Id128.ZERO,
                amount,
                pendingId,
                Id128.ZERO,
                0,
                0,
                0,
                0,
                0,
                TransferFlags.POST_PENDING_TRANSFER);
    }

    /** Voids (releases) the whole of pending transfer {@code pendingId}. */
    public static NewTransfer voidPending(Id128 id, Id128 pendingId) {
        return new NewTransfer(
                id,
                Id128.ZERO,
                Id128.ZERO,
                0,
                pendingId,
                Id128.ZERO,
                0,
                0,
                0,
                0,
                0,
                TransferFlags.VOID_PENDING_TRANSFER);
    }

    public NewTransfer withUserData32(int value) {
        return new NewTransfer(
                id,
                debitAccountId,
                creditAccountId,
                amount,
                pendingId,
                userData128,
                userData64,
                value,
                timeoutSeconds,
                ledger,
                code,
                flags);
    }

    public NewTransfer withUserData64(long value) {
        return new NewTransfer(
                id,
                debitAccountId,
                creditAccountId,
                amount,
                pendingId,
                userData128,
                value,
                userData32,
                timeoutSeconds,
                ledger,
                code,
                flags);
    }

    public NewTransfer withFlags(int newFlags) {
        return new NewTransfer(
                id,
                debitAccountId,
                creditAccountId,
                amount,
                pendingId,
                userData128,
                userData64,
                userData32,
                timeoutSeconds,
                ledger,
                code,
                newFlags);
    }

    /** The same transfer linked to the next one in its batch. */
    public NewTransfer linked() {
        return withFlags(flags | TransferFlags.LINKED);
    }

    public boolean hasFlag(int flag) {
        return TransferFlags.has(flags, flag);
    }
}
