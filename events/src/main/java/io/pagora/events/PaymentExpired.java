package io.pagora.events;

import java.time.Instant;

/** The receiving bank did not answer before the pending chain's timeout: the ledger released it, nothing moved. */
public record PaymentExpired(
        String paymentId,
        String payerAccountId,
        String payeeAccountId,
        long amountCentavos,
        Instant acceptedAt,
        Instant occurredAt,
        ReturnOf returnOf,
        String endToEndId)
        implements PaymentOutcome {

    /** The outcome of a payment that returns nothing, its end-to-end id not known here. */
    public PaymentExpired(
            String paymentId,
            String payerAccountId,
            String payeeAccountId,
            long amountCentavos,
            Instant acceptedAt,
            Instant occurredAt) {
        this(paymentId, payerAccountId, payeeAccountId, amountCentavos, acceptedAt, occurredAt, null, null);
    }

    @Override
    public String status() {
        return "EXPIRED";
    }
}
