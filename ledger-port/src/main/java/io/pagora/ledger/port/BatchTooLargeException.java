package io.pagora.ledger.port;

/** A request with more events than one ledger request can carry; nothing was sent. */
public final class BatchTooLargeException extends IllegalArgumentException {

    private final int size;

    public BatchTooLargeException(int size) {
        super("a ledger request carries at most " + Ledger.BATCH_SIZE_MAX + " events, got " + size
                + "; split it (keeping linked chains whole)");
        this.size = size;
    }

    public int size() {
        return size;
    }
}
