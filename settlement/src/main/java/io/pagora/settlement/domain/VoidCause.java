package io.pagora.settlement.domain;

/**
 * Why a payment's pending chain was voided, recorded in every void leg's {@code user_data_32}. The
 * first path to void a chain decides its outcome, and every later path reads it back from the ledger:
 * a refusal and an expiry racing for one payment (a redelivery that got an answer while the expiry
 * worker holds the unanswered attempt) can then never report two different final states.
 */
public enum VoidCause {
    /** The receiving bank refused the credit: the payment is rejected. */
    RECEIVING_BANK_REFUSED(1),
    /** The receiving bank never answered before the deadline: the payment expired. */
    UNANSWERED(2);

    private final int code;

    VoidCause(int code) {
        this.code = code;
    }

    /** The value stored in {@code user_data_32}; never 0, which the ledger reads as "inherit from the pending leg". */
    public int code() {
        return code;
    }

    /** The cause a stored void leg names, or null for a value this version never writes. */
    public static VoidCause ofCode(int code) {
        for (VoidCause cause : values()) {
            if (cause.code == code) {
                return cause;
            }
        }
        return null;
    }
}
