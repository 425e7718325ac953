package io.pagora.events;

import java.time.Instant;

/**
 * payment-api accepted a payment: Kafka holds it durably and clearing will settle it exactly once.
 *
 * @param endToEndId the payment's PIX end-to-end id (E…); a return's own return id (D…)
 * @param returnOf what this payment returns, when it is a return (devolução) of a settled payment; null otherwise
 */
public record PaymentRequested(
        String paymentId,
        String payerAccountId,
        String payeeAccountId,
        long amountCentavos,
        String currency,
        String description,
        String endToEndId,
        Instant acceptedAt,
        ReturnOf returnOf)
        implements PaymentEvent {

    /** A payment that returns nothing. */
    public PaymentRequested(
            String paymentId,
            String payerAccountId,
            String payeeAccountId,
            long amountCentavos,
            String currency,
            String description,
            String endToEndId,
            Instant acceptedAt) {
        this(
                paymentId,
                payerAccountId,
                payeeAccountId,
                amountCentavos,
                currency,
                description,
                endToEndId,
                acceptedAt,
                null);
    }

    @Override
    public Instant occurredAt() {
        return acceptedAt;
    }
}
