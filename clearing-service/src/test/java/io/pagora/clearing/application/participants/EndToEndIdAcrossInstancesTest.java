package io.pagora.clearing.application.participants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.application.OutcomePublisher;
import io.pagora.clearing.application.Outcomes;
import io.pagora.clearing.application.UnansweredPayments;
import io.pagora.clearing.application.expiry.ExpiringInstructed;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRequested;
import io.pagora.events.participant.RefusalCode;
import io.pagora.kernel.Id128;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.ledger.ReferenceLedger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An outcome's end-to-end id does not depend on which clearing instance applies the answer or expires the payment:
 * one instance instructs, a second one, with memory of its own and nothing in it, resolves the payment, and the
 * outcome carries the end-to-end id the request had, taken from what travels between them (the answer, the parked
 * record). On the in-memory reference ledger, the instances sharing it as they share the real one.
 */
class EndToEndIdAcrossInstancesTest {

    private final ReferenceLedger ledger = ReferenceLedger.onWallClock();
    private final PixWorld world = new PixWorld(ledger);
    private final Settlement settlement = new Settlement(ledger, 60);
    private final Outcomes outcomes = new Outcomes(Clock.systemUTC());
    private final List<PaymentOutcome> published = new ArrayList<>();
    private final OutcomePublisher publisher = (results, payerOnly) -> published.addAll(results);
    private final List<UnansweredPayments.Instructed> parked = new ArrayList<>();
    /** The instance that instructs. */
    private final InstructingParticipants first = new InstructingParticipants(settlement, issued -> {}, publisher,
            outcomes, new UnansweredPayments() {
                @Override
                public void park(List<PaymentRequested> payments, Instant deadline) {
                    throw new AssertionError("instructed payments are parked as instructed");
                }

                @Override
                public void parkInstructed(List<Instructed> payments, Instant deadline) {
                    parked.addAll(payments);
                }
            }, new InstructedEndToEndIds(), Clock.systemUTC(), Duration.ZERO);
    /** The instance that resolves: fresh memory. */
    private final InstructedEndToEndIds secondsMemory = new InstructedEndToEndIds();
    private final ApplyingAnswers secondAnswering = new ApplyingAnswers(settlement, publisher, outcomes, secondsMemory);
    private final ExpiringInstructed secondExpiring = new ExpiringInstructed(settlement, publisher, outcomes,
            secondsMemory);

    private long customers;

    EndToEndIdAcrossInstancesTest() {
        world.fundReserve(PixWorld.BANK_A, 1_000_00);
    }

    @Test
    void anAnswerAppliedByAnotherInstanceGivesTheOutcomeTheRequestsEndToEndId() {
        PaymentRequested accepted = payment();
        PaymentRequested refused = payment();
        first.clear(List.of(request(accepted), request(refused)));

        // The answers as the answer records carry them: with the end-to-end id of the instruction answered.
        secondAnswering.answer(List.of(
                AnswerRequest.accept(PixWorld.BANK_B, id(accepted)).withEndToEndId(accepted.endToEndId()),
                AnswerRequest.refuse(PixWorld.BANK_B, id(refused), RefusalCode.AC03)
                        .withEndToEndId(refused.endToEndId())));

        assertThat(published).extracting(PaymentOutcome::paymentId, PaymentOutcome::status, PaymentOutcome::endToEndId)
                .containsExactly(
                        tuple(accepted.paymentId(), "SETTLED", accepted.endToEndId()),
                        tuple(refused.paymentId(), "REJECTED", refused.endToEndId()));
    }

    @Test
    void aPaymentExpiredByAnotherInstanceGetsTheEndToEndIdParkedWithIt() {
        PaymentRequested silent = payment();
        first.clear(List.of(request(silent)));

        secondExpiring.expire(List.copyOf(parked));

        assertThat(published).extracting(PaymentOutcome::paymentId, PaymentOutcome::status, PaymentOutcome::endToEndId)
                .containsExactly(tuple(silent.paymentId(), "EXPIRED",
                        silent.endToEndId()));
    }

    @Test
    void theLastWordOfAnotherInstanceCarriesTheParkedEndToEndIdToo() {
        PaymentRequested silent = payment();
        first.clear(List.of(request(silent)));

        secondExpiring.publishWhatTheLedgerHolds(List.copyOf(parked));

        assertThat(published).extracting(PaymentOutcome::endToEndId).containsExactly(silent.endToEndId());
    }

    private PaymentRequested payment() {
        long number = ++customers;
        Id128 payer = world.openCustomers(PixWorld.BANK_A, number, 1, 100_00).getFirst();
        Id128 payee = world.openCustomers(PixWorld.BANK_B, number, 1, 0).getFirst();
        return world.payment(payer, payee, 10_00);
    }

    private static PaymentId id(PaymentRequested payment) {
        return PaymentId.parse(payment.paymentId());
    }

    private static ClearingRequest request(PaymentRequested event) {
        return new ClearingRequest(event, ClearingRequest.toPayment(event));
    }
}
