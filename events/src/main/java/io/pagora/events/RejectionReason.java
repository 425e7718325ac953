package io.pagora.events;

/** Why a payment was rejected. Nothing moved in every case. */
public enum RejectionReason {
    /** The payer's available balance is below the amount. */
    INSUFFICIENT_FUNDS,
    /** The payer bank's reserve at the central bank cannot cover the amount. */
    INSUFFICIENT_RESERVE,
    /** The payer, the payee or a bank account of the chain does not exist in the ledger. */
    UNKNOWN_ACCOUNT,
    /** The receiving bank refused the credit. */
    RECEIVING_BANK_REFUSED,
    /**
     * No longer published: an integrity alarm is not a refusal (clearing asks the ledger, and a genuine
     * conflict gets no outcome but a dead letter and an alarm). Kept so events written before decode.
     */
    IDEMPOTENCY_CONFLICT,
    /** An earlier attempt with the same ids failed on ledger state; the ledger refuses those ids for good. */
    PREVIOUSLY_FAILED,
    /**
     * A return for more than what is left of its original payment's amount, counting the returns settled and those
     * still pending: the ledger refused it (two returns racing for the last centavos: one of them).
     */
    RETURN_EXCEEDS_RETURNABLE,
    /** Any other ledger refusal; the event's detail names the ledger code. */
    LEDGER_REFUSED
}
