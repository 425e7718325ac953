package io.pagora.clearing.application.expiry;

import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.application.LedgerPass;
import io.pagora.clearing.application.OutcomePublisher;
import io.pagora.clearing.application.Outcomes;
import io.pagora.clearing.application.Report;
import io.pagora.kernel.Check;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.ChainState;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.VoidCause;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves parked whole requests the receiving bank never answered, once their pending chains have timed out, and
 * gives the last word on those the expiry path itself failed on.
 */
public final class ExpiringUnanswered {

    private final Settlement settlement;
    private final OutcomePublisher publisher;
    private final Outcomes outcomes;
    private final boolean answeredElsewhere;

    /**
     * @param answeredElsewhere with participants, whose answers resolve chains on another path: most parked chains
     *     are resolved by then, so one lookup drops them before any ledger write
     */
    public ExpiringUnanswered(
            Settlement settlement, OutcomePublisher publisher, Outcomes outcomes, boolean answeredElsewhere) {
        this.settlement = settlement;
        this.publisher = publisher;
        this.outcomes = outcomes;
        this.answeredElsewhere = answeredElsewhere;
    }

    /**
     * One reservation request (chains reserved before answer exists), then one void for all of them, for
     * {@link VoidCause#UNANSWERED}. Expired or voided for that cause: nothing moved, the payment expired. Voided earlier
     * because the bank refused, or posted: an earlier attempt (a redelivery that got an answer) resolved it, and the
     * ledger's word wins.
     */
    public Report expire(List<ClearingRequest> requests) {
        LedgerPass pass = LedgerPass.over(requests, settlement, outcomes);
        if (pass.batch().isEmpty()) {
            return Report.EMPTY;
        }
        if (answeredElsewhere) {
            pass = withoutResolved(pass);
        }
        // Reserve first: a payment parked after clearing failed on it may never have been reserved. Voiding an
        // absent chain would answer pending_transfer_not_found, burn the void ids and leave it without an
        // outcome; reserved now and voided at once, it expires (or is rejected, if the ledger refuses it),
        // and any later redelivery reads the same from the ledger. A chain reserved before answers exists.
        List<ClearingRequest> reserved = pass.reserve();
        pass.resolve(reserved, payments -> settlement.voidAll(payments, VoidCause.UNANSWERED), i -> "");
        publisher.publish(pass.results());
        return pass.report(0);
    }

    /**
     * The expiry path's last word on payments it could not process (a bug, set aside by the adapter):
     * there is no later path to park them for, so each gets, from one {@link Settlement#inspect}, the
     * outcome its chain in the ledger shows. Posted: settled. Voided: for the cause the void legs
     * record. Open or absent: expired, nothing moved. Their deadline has passed, so a chain the
     * requests path reserved before parking has timed out and can no longer be posted; a chain the
     * expiry path reserved itself just now expires by the ledger's own timeout, and only the
     * requests path posts, which parked this payment and is done with it (the one exception: a crash
     * before that poll's commit redelivers it, the residual risk of a payment clearing fails on twice).
     * A chain holding another payment's transfers is an integrity alarm, never a refusal: no outcome.
     */
    public Report publishWhatTheLedgerHolds(List<ClearingRequest> requests) {
        LedgerPass pass = LedgerPass.over(requests, settlement, outcomes);
        if (pass.batch().isEmpty()) {
            return Report.EMPTY;
        }
        List<ChainState> states = settlement.inspect(LedgerPass.payments(pass.batch()));
        Check.that(states.size() == pass.batch().size(), "one chain state per payment");
        for (int i = 0; i < states.size(); i++) {
            pass.addWhatTheLedgerHolds(pass.batch().get(i), states.get(i), outcomes::expired);
        }
        publisher.publish(pass.results());
        return pass.report(0);
    }

    /**
     * One lookup finds the chains already posted or voided, whose outcome the answer path published, so the expiry
     * path voids only the rest (and spends no ledger write on the answered).
     */
    private LedgerPass withoutResolved(LedgerPass pass) {
        List<Boolean> resolved = settlement.resolved(
                LedgerPass.payments(pass.batch()).stream().map(Payment::id).toList());
        List<ClearingRequest> open = new ArrayList<>(pass.batch().size());
        for (int i = 0; i < resolved.size(); i++) {
            if (!resolved.get(i)) {
                open.add(pass.batch().get(i));
            }
        }
        return LedgerPass.over(open, settlement, outcomes);
    }
}
