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
        Instant occurredAt) implements PaymentOutcome {

    @Override
    public String status() {
        return "REJECTED";
    }
}
