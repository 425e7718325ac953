package io.pagora.settlement.domain.med;

/** What became of one refund of an accepted report's hold (docs/med.md): reserved, or why not. */
public enum RefundOutcome {
    /** The hold is voided and the return reserved, now or by an earlier identical request: clearing settles it. */
    RESERVED,
    /** The hold lapsed before the refund: nothing is held, nothing refunded. */
    HOLD_LAPSED,
    /** The hold was released (the report's holds were freed first): nothing refunded. */
    HOLD_RELEASED,
    /** The held account's bank's reserve cannot pay the refund now; the hold stands. */
    INSUFFICIENT_RESERVE,
    /** A plain return of the payment took what was left to return; the hold stands. */
    RETURN_EXCEEDS_RETURNABLE,
    /** An earlier request with these ids was refused for the ledger's state (TigerBeetle keeps the refusal). */
    PREVIOUSLY_FAILED,
    /** Anything else the ledger refused; the hold stands. */
    LEDGER_REFUSED;

    /** The ledger refused to pay this share: its hold stands, until it lapses. */
    public boolean refused() {
        return this != RESERVED && this != HOLD_LAPSED && this != HOLD_RELEASED;
    }
}
