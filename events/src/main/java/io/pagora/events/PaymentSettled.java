package io.pagora.events;

import java.time.Instant;

/** Every leg was posted: the payer was debited and the payee credited, once. */
public record PaymentSettled(
        String paymentId,
        String payerAccountId,
        String payeeAccountId,
        long amountCentavos,
        Instant acceptedAt,
        Instant occurredAt) implements PaymentOutcome {

    @Override
    public String status() {
        return "SETTLED";
    }
}
