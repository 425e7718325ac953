package io.pagora.ledger.adapter.postgres;

import io.pagora.ledger.port.Transfer;

/**
 * A transfer row: the immutable transfer, plus the two-phase state of a pending one. Only
 * {@link #status} ever changes, and only from {@link #PENDING}.
 */
final class StoredTransfer {

    static final short NOT_PENDING = 0;
    static final short PENDING = 1;
    static final short POSTED = 2;
    static final short VOIDED = 3;
    static final short EXPIRED = 4;

    /** {@code expiresAt} of a pending transfer without a timeout. */
    static final long NEVER = Long.MAX_VALUE;

    final Transfer transfer;
    final long expiresAtNs;
    final boolean created;
    final short statusLoaded;
    short status;

    StoredTransfer(Transfer transfer, long expiresAtNs, short status, boolean created) {
        this.transfer = transfer;
        this.expiresAtNs = expiresAtNs;
        this.status = status;
        this.statusLoaded = status;
        this.created = created;
    }

    static long expiresAt(long timestampNs, int timeoutSeconds) {
        return timeoutSeconds == 0 ? NEVER : timestampNs + timeoutSeconds * 1_000_000_000L;
    }
}
