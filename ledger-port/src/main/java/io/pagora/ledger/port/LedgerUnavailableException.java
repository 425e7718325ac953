package io.pagora.ledger.port;

/**
 * The ledger did not answer in time, was overloaded, or could not be reached. The request may or may
 * not have been applied: retrying it with the same ids is safe and is the only correct recovery.
 */
public final class LedgerUnavailableException extends RuntimeException {

    public LedgerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public LedgerUnavailableException(String message) {
        super(message);
    }
}
