package io.pagora.events;

/** A payment's final state: exactly one of settled, rejected or expired. */
public sealed interface PaymentOutcome extends PaymentEvent permits PaymentSettled, PaymentRejected, PaymentExpired {

    /** The status name used by the read model: SETTLED, REJECTED or EXPIRED. */
    String status();
}
