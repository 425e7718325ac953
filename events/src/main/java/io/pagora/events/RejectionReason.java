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
    /** A ledger id already exists with different fields: an integrity alarm was raised. */
    IDEMPOTENCY_CONFLICT,
    /** An earlier attempt with the same ids failed on ledger state; the ledger refuses those ids for good. */
    PREVIOUSLY_FAILED,
    /** Any other ledger refusal; the event's detail names the ledger code. */
    LEDGER_REFUSED
}
