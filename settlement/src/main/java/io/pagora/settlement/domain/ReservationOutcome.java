package io.pagora.settlement.domain;

import io.pagora.kernel.Check;
import io.pagora.ledger.port.TransferResult;
import java.util.List;

/** What happened to a payment's pending chain. Business outcomes are values, not exceptions. */
public sealed interface ReservationOutcome {

    /**
     * All legs are pending, now ({@code earlier} false) or already by an earlier identical attempt ({@code earlier}
     * true: the chain may since have been posted or voided; a redelivery asks the ledger before acting again).
     */
    record Reserved(boolean earlier) implements ReservationOutcome {

        public Reserved() {
            this(false);
        }
    }

    /** The ledger refused the chain; nothing is reserved and nothing moved. */
    record Refused(RefusalReason reason, int leg, TransferResult code) implements ReservationOutcome {}

    /**
     * A leg id exists with different fields: a derivation bug or corrupted data. Stop and alert. Leg 0 is a return's
     * returnable opening ({@link SettlementPlan#returnableOpening}), held by the ledger with another amount.
     */
    record IntegrityAlarm(int leg, TransferResult code) implements ReservationOutcome {}

    enum RefusalReason {
        /** The payer's available balance (posted credits minus all debits) is below the amount. */
        INSUFFICIENT_FUNDS,
        /** The payer bank's reserve at the central bank cannot cover the amount. */
        INSUFFICIENT_RESERVE,
        /** The payer, the payee or a bank account of the chain does not exist. */
        UNKNOWN_ACCOUNT,
        /**
         * An earlier attempt with these same ids failed for a reason that depended on ledger state
         * (TigerBeetle 0.16 then refuses the ids for good: {@code id_already_failed}).
         */
        PREVIOUSLY_FAILED,
        /** A return for more than its original payment's amount not yet returned (settled or pending returns). */
        RETURN_EXCEEDS_RETURNABLE,
        /** Any other ledger refusal; {@code code} says which. */
        LEDGER_REFUSED
    }

    /**
     * Classifies the results of one pending chain, given in leg order. The root cause is the first
     * result that is neither {@code ok} nor {@code linked_event_failed}.
     */
    static ReservationOutcome classify(SettlementPlan plan, List<TransferResult> chainResults) {
        Check.that(chainResults.size() == plan.legCount(), "one result per leg");
        if (isAppliedNowOrBefore(chainResults)) {
            return new Reserved(chainResults.contains(TransferResult.EXISTS));
        }
        int index = rootCauseIndex(chainResults);
        TransferResult code = chainResults.get(index);
        int leg = index + 1;
        if (code.isIntegrityAlarm() || code == TransferResult.EXISTS) {
            return new IntegrityAlarm(leg, code);
        }
        return new Refused(reasonOf(code, plan, leg), leg, code);
    }

    /**
     * The outcome once the ledger has been asked about an alarm: a chain of this payment's that the
     * ledger holds — open, posted or voided, reserved with whatever timeout the configuration named
     * then — is this payment's reservation (phase 2 reports what became of it); only an absent or
     * conflicting chain keeps the alarm.
     */
    static ReservationOutcome fromLedger(ChainState state, IntegrityAlarm alarm) {
        return switch (state) {
            case ChainState.Open ignored -> new Reserved(true);
            case ChainState.Posted ignored -> new Reserved(true);
            case ChainState.Voided ignored -> new Reserved(true);
            case ChainState.Absent ignored -> alarm;
            case ChainState.Conflicting ignored -> alarm;
        };
    }

    /**
     * True if the whole chain took effect now, or took effect in an earlier identical attempt. In
     * TigerBeetle an {@code exists} result breaks a linked chain like any other failure, so the retry
     * of a committed chain answers {@code exists} for its first leg and {@code linked_event_failed}
     * for the rest. Chains are atomic and their ids derived, so an existing first leg means the whole
     * chain exists; an {@code exists} at a later leg behind a rolled-back first leg cannot come from
     * this chain and is left to the caller as an integrity alarm.
     */
    static boolean isAppliedNowOrBefore(List<TransferResult> chainResults) {
        if (chainResults.stream().allMatch(TransferResult::isSuccess)) {
            return true;
        }
        return chainResults.getFirst() == TransferResult.EXISTS
                && chainResults.stream()
                        .skip(1)
                        .allMatch(result ->
                                result == TransferResult.LINKED_EVENT_FAILED || result == TransferResult.EXISTS);
    }

    private static RefusalReason reasonOf(TransferResult code, SettlementPlan plan, int leg) {
        return switch (code) {
            case EXCEEDS_CREDITS -> plan.exceedsCreditsReason(leg);
            case DEBIT_ACCOUNT_NOT_FOUND, CREDIT_ACCOUNT_NOT_FOUND -> RefusalReason.UNKNOWN_ACCOUNT;
            case ID_ALREADY_FAILED -> RefusalReason.PREVIOUSLY_FAILED;
            default -> RefusalReason.LEDGER_REFUSED;
        };
    }

    static int rootCauseIndex(List<TransferResult> chainResults) {
        for (int i = 0; i < chainResults.size(); i++) {
            TransferResult result = chainResults.get(i);
            if (result != TransferResult.OK && result != TransferResult.LINKED_EVENT_FAILED) {
                return i;
            }
        }
        throw new IllegalStateException("a failed chain has no root cause: " + chainResults);
    }
}
