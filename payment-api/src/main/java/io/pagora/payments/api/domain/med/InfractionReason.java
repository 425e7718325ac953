package io.pagora.payments.api.domain.med;

/** Why a payer's bank reports a payment (MED 2.0's reasons). */
public enum InfractionReason {
    /** A scam: the payer was deceived into paying. */
    FRAUD,
    /** The payer paid under threat (kidnapping, extortion). */
    COERCION,
    /** A failure of the payer's bank's own systems sent the payment. */
    OPERATIONAL_FAILURE
}
