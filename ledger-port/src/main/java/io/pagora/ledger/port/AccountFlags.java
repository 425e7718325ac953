package io.pagora.ledger.port;

/** Account flags; bit values are TigerBeetle's so adapters and stored data agree. */
public final class AccountFlags {

    private AccountFlags() {}

    public static final int NONE = 0;
    /** Links this account with the next one in the batch: the chain is created, or none of it. */
    public static final int LINKED = 1;
    /** debits_pending + debits_posted must never exceed credits_posted (a balance that can't go negative). */
    public static final int DEBITS_MUST_NOT_EXCEED_CREDITS = 1 << 1;
    /** credits_pending + credits_posted must never exceed debits_posted. */
    public static final int CREDITS_MUST_NOT_EXCEED_DEBITS = 1 << 2;

    /** The flags every backend implements. Other TigerBeetle flags are not part of the port. */
    public static final int SUPPORTED = LINKED | DEBITS_MUST_NOT_EXCEED_CREDITS | CREDITS_MUST_NOT_EXCEED_DEBITS;

    public static boolean has(int flags, int flag) {
        return (flags & flag) != 0;
    }
}
