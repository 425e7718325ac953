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
     * The chain was already resolved the other way (posting found it voided, or voiding found it
     * posted), or was never reserved. With deterministic ids this is a bug: stop and alert.
     */
    record IntegrityAlarm(int leg, TransferResult code) implements ResolutionOutcome {}

    static ResolutionOutcome classify(List<TransferResult> chainResults, boolean posting) {
        if (chainResults.stream().allMatch(TransferResult::isSuccess)) {
            return posting ? new Posted() : new Voided();
        }
        int index = ReservationOutcome.rootCauseIndex(chainResults);
        TransferResult code = chainResults.get(index);
        return switch (code) {
            case PENDING_TRANSFER_EXPIRED -> new Expired();
            default -> new IntegrityAlarm(index + 1, code);
        };
    }
}
