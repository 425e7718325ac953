package io.pagora.settlement.domain;

import io.pagora.ledger.domain.TransferResult;
import java.util.List;

/** What happened when a payment's pending chain was posted or voided. */
public sealed interface ResolutionOutcome {

    /** Every leg is posted: the payment settled (now, or by an earlier identical attempt). */
    record Posted() implements ResolutionOutcome {}

    /** Every leg is voided: the reservation was released and nothing moved. */
    record Voided() implements ResolutionOutcome {}

    /** The chain expired before the answer arrived: the ledger released it and nothing moved. */
    record Expired() implements ResolutionOutcome {}

    /**
     * The chain was never reserved, or an id exists with different fields. With deterministic ids this
     * is a bug or corrupted data: stop and alert.
     */
    record IntegrityAlarm(int leg, TransferResult code) implements ResolutionOutcome {}

    /**
     * Classifies the results of a post or void chain. The ledger is the truth: if an earlier attempt
     * (e.g. before a crash and redelivery) already resolved the chain the other way, the outcome is
     * what the ledger did then — posting a voided chain answers {@link Voided}, voiding a posted one
     * {@link Posted} — never a second movement of money.
     */
    static ResolutionOutcome classify(List<TransferResult> chainResults, boolean posting) {
        if (ReservationOutcome.isAppliedNowOrBefore(chainResults)) {
            return posting ? new Posted() : new Voided();
        }
        int index = ReservationOutcome.rootCauseIndex(chainResults);
        TransferResult code = chainResults.get(index);
        return switch (code) {
            case PENDING_TRANSFER_EXPIRED -> new Expired();
            case PENDING_TRANSFER_ALREADY_POSTED -> new Posted();
            case PENDING_TRANSFER_ALREADY_VOIDED -> new Voided();
            default -> new IntegrityAlarm(index + 1, code);
        };
    }
}
