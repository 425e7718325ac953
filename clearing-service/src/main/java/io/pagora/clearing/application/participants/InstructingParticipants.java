package io.pagora.clearing.application.participants;

import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.application.ClearingRequests;
import io.pagora.clearing.application.LedgerPass;
import io.pagora.clearing.application.OutcomePublisher;
import io.pagora.clearing.application.Outcomes;
import io.pagora.clearing.application.Report;
import io.pagora.clearing.application.UnansweredPayments;
import io.pagora.kernel.Check;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.ChainState;
import io.pagora.settlement.domain.VoidCause;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Clears a poll whose receiving banks are participants: reserves every chain, issues every fresh reservation's
 * instruction, then parks it for the expiry path; the poll is then done, and the answers arrive later
 * ({@link ApplyingAnswers}).
 *
 * <p>A chain an earlier attempt reserved (a redelivered poll) is first looked up: posted or voided, it gets the
 * outcome the ledger holds and no second instruction; still open, it is instructed again with the deadline its first
 * reservation set in the ledger (the bank drops the duplicate instruction by its id), or, that deadline passed, voided
 * as unanswered and expired, never instructed. Parking comes after the instruction is stored: the expiry path
 * publishes an outcome only for a parked payment, so a payment's outcome never precedes its instruction on the bank's
 * stream, however long issuing keeps failing.
 */
public final class InstructingParticipants implements ClearingRequests {

    private final Settlement settlement;
    private final Instructions instructions;
    private final OutcomePublisher publisher;
    private final Outcomes outcomes;
    private final UnansweredPayments unanswered;
    private final InstructedEndToEndIds endToEndIds;
    private final Clock clock;
    private final Duration expiryMargin;

    /**
     * @param expiryMargin added to an instruction's deadline to get its parked deadline, so the expiry worker acts
     *     after the ledger's own expiry despite clock differences
     */
    public InstructingParticipants(
            Settlement settlement,
            Instructions instructions,
            OutcomePublisher publisher,
            Outcomes outcomes,
            UnansweredPayments unanswered,
            InstructedEndToEndIds endToEndIds,
            Clock clock,
            Duration expiryMargin) {
        Check.that(!expiryMargin.isNegative(), "expiry margin must not be negative: %s", expiryMargin);
        this.settlement = settlement;
        this.instructions = instructions;
        this.publisher = publisher;
        this.outcomes = outcomes;
        this.unanswered = unanswered;
        this.endToEndIds = endToEndIds;
        this.clock = clock;
        this.expiryMargin = expiryMargin;
    }

    @Override
    public Report clear(List<ClearingRequest> requests) {
        LedgerPass pass = LedgerPass.over(requests, settlement, outcomes);
        if (pass.batch().isEmpty()) {
            return Report.EMPTY;
        }
        // Read before the reservation: a fresh chain lapses no earlier than this plus the pending timeout.
        Instant reservedAt = clock.instant();
        List<ClearingRequest> reserved = pass.reserve();
        Instant now = clock.instant();
        Instant freshAnswerBy = reservedAt.plusSeconds(settlement.pendingTimeoutSeconds());
        List<ClearingRequest> toInstruct = new ArrayList<>(reserved.size());
        List<Instructions.Instruction> instructed = new ArrayList<>(reserved.size());
        List<ClearingRequest> lapsed = new ArrayList<>();
        // Lapsed before any instruction was issued: the payee's bank never heard of them.
        Set<String> neverInstructed = new HashSet<>();
        List<ClearingRequest> earlier = new ArrayList<>();
        for (ClearingRequest request : reserved) {
            if (pass.reservedEarlier(request)) {
                earlier.add(request);
            } else if (freshAnswerBy.isAfter(now)) {
                toInstruct.add(request);
                instructed.add(new Instructions.Instruction(request.event(), freshAnswerBy));
            } else {
                lapsed.add(request);
                neverInstructed.add(request.event().paymentId());
            }
        }
        if (!earlier.isEmpty()) {
            List<ChainState> states = settlement.inspect(LedgerPass.payments(earlier));
            for (int i = 0; i < earlier.size(); i++) {
                ClearingRequest request = earlier.get(i);
                switch (states.get(i)) {
                    case ChainState.Open open -> {
                        // The ledger's deadline, not a new one: the bank is never given time the ledger does not.
                        if (open.expiresAt().isAfter(now)) {
                            toInstruct.add(request);
                            instructed.add(new Instructions.Instruction(request.event(), open.expiresAt()));
                        } else {
                            lapsed.add(request);
                        }
                    }
                    case ChainState.Posted ignored -> pass.results().add(outcomes.settled(request));
                    case ChainState.Voided voided -> pass.results().add(outcomes.voided(request, voided.cause(), ""));
                    case ChainState.Absent ignored -> pass.alarm(request, "reserved, yet the ledger holds no chain");
                    case ChainState.Conflicting conflicting ->
                        pass.alarm(request, "the ledger holds " + conflicting.detail());
                }
            }
        }
        // A lapsed chain takes the expiry path here and now: voided as unanswered (or read back as expired, or as
        // whatever an answer to an earlier instruction did first), and published, never instructed after.
        pass.resolve(lapsed, payments -> settlement.voidAll(payments, VoidCause.UNANSWERED), i -> "");
        if (!toInstruct.isEmpty()) {
            toInstruct.forEach(request ->
                    endToEndIds.remember(request.payment().id(), request.event().endToEndId()));
            instructions.issue(instructed);
            Instant latest = instructed.stream()
                    .map(Instructions.Instruction::answerBy)
                    .max(Instant::compareTo)
                    .orElseThrow();
            unanswered.parkInstructed(
                    toInstruct.stream()
                            .map(request -> new UnansweredPayments.Instructed(
                                    request.payment().id(), request.event().endToEndId()))
                            .toList(),
                    latest.plus(expiryMargin));
        }
        // An earlier attempt may have instructed a redelivered chain before it lapsed: its payee's bank is told.
        publisher.publish(pass.results(), neverInstructed);
        return pass.report(toInstruct.size());
    }
}
