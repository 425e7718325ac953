package io.pagora.ledger.port;

/** Transfer flags; bit values are TigerBeetle's so adapters and stored data agree. */
public final class TransferFlags {

    private TransferFlags() {}

    public static final int NONE = 0;
    /** Links this transfer with the next one in the batch: the chain commits, or none of it. */
    public static final int LINKED = 1;
    /** Reserve the amount (debits_pending/credits_pending) until posted, voided or expired. */
    public static final int PENDING = 1 << 1;
    /** Move a pending transfer's reservation into posted balances (amount ≤ the pending amount). */
    public static final int POST_PENDING_TRANSFER = 1 << 2;
    /** Release a pending transfer's reservation. */
    public static final int VOID_PENDING_TRANSFER = 1 << 3;

    /** The flags every backend implements. Balancing, closing and imported transfers are not part of the port. */
    public static final int SUPPORTED = LINKED | PENDING | POST_PENDING_TRANSFER | VOID_PENDING_TRANSFER;

    public static boolean has(int flags, int flag) {
        return (flags & flag) != 0;
    }
}
