package io.pagora.clearing.application.bank;

import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.application.ClearingRequests;
import io.pagora.clearing.application.LedgerPass;
import io.pagora.clearing.application.OutcomePublisher;
import io.pagora.clearing.application.Outcomes;
import io.pagora.clearing.application.Report;
import io.pagora.clearing.application.expiry.ParkingForExpiry;
import io.pagora.clearing.domain.BankAnswer;
import io.pagora.kernel.Check;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.VoidCause;
import java.util.ArrayList;
import java.util.List;

/**
 * Clears a poll with the in-process receiving bank, which answers within the poll:
 *
 * <ol>
 *   <li>one {@link Settlement#reserve} for every payment (all legs pending; refused ones are rejected);
 *   <li>one {@link ReceivingBank#decide} for every reserved payment;
 *   <li>one {@link Settlement#post} for the accepted, one {@link Settlement#voidAll} for the refused;
 *       the unanswered are parked until their pending chains time out;
 *   <li>every outcome published, and acknowledged, before returning.
 * </ol>
 */
public final class SettlingWithTheBank implements ClearingRequests {

    private final Settlement settlement;
    private final ReceivingBank bank;
    private final OutcomePublisher publisher;
    private final Outcomes outcomes;
    private final ParkingForExpiry parking;

    public SettlingWithTheBank(
            Settlement settlement,
            ReceivingBank bank,
            OutcomePublisher publisher,
            Outcomes outcomes,
            ParkingForExpiry parking) {
        this.settlement = settlement;
        this.bank = bank;
        this.publisher = publisher;
        this.outcomes = outcomes;
        this.parking = parking;
    }

    /** Clears a batch: reserve, ask the receiving bank, post or void, park the unanswered, publish outcomes. */
    @Override
    public Report clear(List<ClearingRequest> requests) {
        LedgerPass pass = LedgerPass.over(requests, settlement, outcomes);
        if (pass.batch().isEmpty()) {
            return Report.EMPTY;
        }
        // Phase 1: reserve every chain in one request (Settlement splits beyond the ledger's batch limit).
        List<ClearingRequest> reserved = pass.reserve();

        // Ask the receiving banks about everything reserved, in one call.
        List<ClearingRequest> accepted = new ArrayList<>();
        List<ClearingRequest> refused = new ArrayList<>();
        List<String> refusals = new ArrayList<>();
        List<ClearingRequest> noAnswer = new ArrayList<>();
        if (!reserved.isEmpty()) {
            List<BankAnswer> answers = bank.decide(LedgerPass.payments(reserved));
            Check.that(
                    answers.size() == reserved.size(),
                    "one bank answer per payment: %d for %d",
                    answers.size(),
                    reserved.size());
            for (int i = 0; i < reserved.size(); i++) {
                ClearingRequest request = reserved.get(i);
                switch (answers.get(i)) {
                    case BankAnswer.Accepted ignored -> accepted.add(request);
                    case BankAnswer.Refused refusal -> {
                        refused.add(request);
                        refusals.add(refusal.reason());
                    }
                    case BankAnswer.NoAnswer ignored -> noAnswer.add(request);
                }
            }
        }

        // Phase 2: one post for the accepted, one void for the refused.
        pass.resolve(accepted, settlement::post, i -> "");
        pass.resolve(
                refused, payments -> settlement.voidAll(payments, VoidCause.RECEIVING_BANK_REFUSED), refusals::get);

        parking.park(noAnswer);
        publisher.publish(pass.results());
        return pass.report(noAnswer.size());
    }
}
