package io.pagora.events;

import java.time.Instant;

/** The payment did not settle and nothing moved; {@code reason} says why, {@code detail} adds the ledger code. */
public record PaymentRejected(
        String paymentId,
        String payerAccountId,
        String payeeAccountId,
        long amountCentavos,
        RejectionReason reason,
        String detail,
        Instant acceptedAt,
        Instant occurredAt,
        ReturnOf returnOf,
        String endToEndId)
        implements PaymentOutcome {

    /** The outcome of a payment that returns nothing, its end-to-end id not known here. */
    public PaymentRejected(
            String paymentId,
            String payerAccountId,
            String payeeAccountId,
            long amountCentavos,
            RejectionReason reason,
            String detail,
            Instant acceptedAt,
            Instant occurredAt) {
        this(
                paymentId,
                payerAccountId,
                payeeAccountId,
                amountCentavos,
                reason,
                detail,
                acceptedAt,
                occurredAt,
                null,
                null);
    }

    @Override
    public String status() {
        return "REJECTED";
    }
}
