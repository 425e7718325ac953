package io.pagora.events;

import java.time.Instant;

/** Every leg was posted: the payer was debited and the payee credited, once. */
public record PaymentSettled(
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
    public PaymentSettled(
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
        return "SETTLED";
    }
}
