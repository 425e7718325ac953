package io.pagora.events;

/** A payment's final state: exactly one of settled, rejected or expired. */
public sealed interface PaymentOutcome extends PaymentEvent permits PaymentSettled, PaymentRejected, PaymentExpired {

    /** The status name used by the read model: SETTLED, REJECTED or EXPIRED. */
    String status();

    /**
     * The payment's PIX end-to-end id (a return's return id) as clearing knows it: always when the outcome comes from
     * the payment's request; from the answer or expiry path, when the instance that instructed the payment applies
     * it (it keeps the ids of what it instructed, bounded); else null (another instance, or after a restart). Its
     * PaymentRequested always carries it.
     */
    String endToEndId();
}
