package io.pagora.settlement.invariants;

import io.pagora.settlement.domain.Payment;

/**
 * What one source outside the ledger says became of a payment: a row of the read model, or one outcome
 * event clearing published. {@code status} is SETTLED, REJECTED, EXPIRED or (not final yet) ACCEPTED;
 * {@code reason} is a rejection's reason, else null.
 */
public record Claim(Payment payment, String status, String reason) {

    public static final String SETTLED = "SETTLED";

    public boolean settled() {
        return SETTLED.equals(status);
    }

    public boolean isFinal() {
        return SETTLED.equals(status) || "REJECTED".equals(status) || "EXPIRED".equals(status);
    }

    /** SETTLED, EXPIRED or REJECTED(REASON). */
    public String outcome() {
        return reason == null ? status : status + "(" + reason + ")";
    }
}
