package io.pagora.events;

import java.time.Instant;

/** payment-api accepted a payment: Kafka holds it durably and clearing will settle it exactly once. */
public record PaymentRequested(
        String paymentId,
        String payerAccountId,
        String payeeAccountId,
        long amountCentavos,
        String currency,
        String description,
        String endToEndId,
        Instant acceptedAt) implements PaymentEvent {

    @Override
    public Instant occurredAt() {
        return acceptedAt;
    }
}
