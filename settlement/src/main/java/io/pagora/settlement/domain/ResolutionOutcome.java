package io.pagora.settlement.domain;

import io.pagora.ledger.port.TransferResult;
import java.util.List;

/** What happened when a payment's pending chain was posted or voided. */
public sealed interface ResolutionOutcome {

    /** Every leg is posted: the payment settled (now, or by an earlier identical attempt). */
    record Posted() implements ResolutionOutcome {}

    /** Every leg is voided, for {@code cause}: the reservation was released and nothing moved. */
    record Voided(VoidCause cause) implements ResolutionOutcome {}

    /** The chain expired before the answer arrived: the ledger released it and nothing moved. */
    record Expired() implements ResolutionOutcome {}

    /**
     * The chain was never reserved, or an id holds something that is not this payment's, and the
     * ledger, asked, confirmed it. With deterministic ids this is a bug or corrupted data: stop and
     * alert. Never a refusal: nothing is known about the payment but that its ids conflict.
     */
    record IntegrityAlarm(int leg, TransferResult code) implements ResolutionOutcome {}

    /**
     * Classifies the results of a post ({@code voidCause} null) or void chain from the answers alone.
     * The ledger is the truth: if an earlier attempt (e.g. before a crash and redelivery) already
     * resolved the chain the other way, the outcome is what the ledger did then — voiding a posted
     * chain answers {@link Posted}, never a second movement of money. An answer that does not say how
     * (the chain was voided, for a cause the answer does not carry; an id exists with other fields) is
     * an {@link IntegrityAlarm} here, which {@code Settlement} resolves by reading the chain back.
     */
    static ResolutionOutcome classify(List<TransferResult> chainResults, VoidCause voidCause) {
        if (ReservationOutcome.isAppliedNowOrBefore(chainResults)) {
            return voidCause == null ? new Posted() : new Voided(voidCause);
        }
        int index = ReservationOutcome.rootCauseIndex(chainResults);
        TransferResult code = chainResults.get(index);
        return switch (code) {
            case PENDING_TRANSFER_EXPIRED -> new Expired();
            case PENDING_TRANSFER_ALREADY_POSTED -> new Posted();
            default -> new IntegrityAlarm(index + 1, code);
        };
    }

    /** The outcome the ledger's record of the chain shows; an alarm only if it shows none. */
    static ResolutionOutcome fromLedger(ChainState state, IntegrityAlarm alarm) {
        return switch (state) {
            case ChainState.Posted ignored -> new Posted();
            case ChainState.Voided voided -> new Voided(voided.cause());
            case ChainState.Open ignored -> alarm;
            case ChainState.Absent ignored -> alarm;
            case ChainState.Conflicting ignored -> alarm;
        };
    }
}
