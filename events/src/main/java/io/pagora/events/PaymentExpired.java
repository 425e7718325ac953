package io.pagora.events;

import java.time.Instant;

/** The receiving bank did not answer before the pending chain's timeout: the ledger released it, nothing moved. */
public record PaymentExpired(
        String paymentId,
        String payerAccountId,
        String payeeAccountId,
        long amountCentavos,
        Instant acceptedAt,
        Instant occurredAt) implements PaymentOutcome {

    @Override
    public String status() {
        return "EXPIRED";
    }
}
