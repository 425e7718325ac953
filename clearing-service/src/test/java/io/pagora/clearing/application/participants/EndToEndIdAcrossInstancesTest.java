package io.pagora.clearing.application.participants;

import static io.pagora.clearing.testsupport.UseCaseWorld.id;
import static io.pagora.clearing.testsupport.UseCaseWorld.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.pagora.clearing.application.expiry.ExpiringInstructed;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.clearing.testsupport.UseCaseWorld;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRequested;
import io.pagora.events.participant.RefusalCode;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An outcome's end-to-end id does not depend on which clearing instance applies the answer or expires the payment:
 * one instance instructs, a second one, with memory of its own and nothing in it, resolves the payment, and the
 * outcome carries the end-to-end id the request had, taken from what travels between them (the answer, the parked
 * record). On in-memory fakes, the instances sharing the ledger as they share the real one.
 */
class EndToEndIdAcrossInstancesTest {

    private final UseCaseWorld fakes = new UseCaseWorld();
    private final InstructedEndToEndIds firstsMemory = new InstructedEndToEndIds();
    /** The instance that instructs. */
    private final InstructingParticipants first = new InstructingParticipants(
            fakes.settlement,
            issued -> {},
            fakes.publisher,
            fakes.outcomes,
            fakes.unanswered,
            firstsMemory,
            Clock.systemUTC(),
            Duration.ZERO);
    /** The instance that resolves: fresh memory. */
    private final InstructedEndToEndIds secondsMemory = new InstructedEndToEndIds();

    private final ApplyingAnswers secondAnswering =
            new ApplyingAnswers(fakes.settlement, fakes.publisher, fakes.outcomes, secondsMemory);
    private final ExpiringInstructed secondExpiring =
            new ExpiringInstructed(fakes.settlement, fakes.publisher, fakes.outcomes, secondsMemory);

    @Test
    void anAnswerAppliedByAnotherInstanceGivesTheOutcomeTheRequestsEndToEndId() {
        PaymentRequested accepted = fakes.payment();
        PaymentRequested refused = fakes.payment();
        first.clear(List.of(request(accepted), request(refused)));

        // The answers as the answer records carry them: with the end-to-end id of the instruction answered.
        secondAnswering.answer(List.of(
                AnswerRequest.accept(PixWorld.BANK_B, id(accepted)).withEndToEndId(accepted.endToEndId()),
                AnswerRequest.refuse(PixWorld.BANK_B, id(refused), RefusalCode.AC03)
                        .withEndToEndId(refused.endToEndId())));

        assertThat(fakes.published)
                .extracting(PaymentOutcome::paymentId, PaymentOutcome::status, PaymentOutcome::endToEndId)
                .containsExactly(
                        tuple(accepted.paymentId(), "SETTLED", accepted.endToEndId()),
                        tuple(refused.paymentId(), "REJECTED", refused.endToEndId()));
    }

    @Test
    void aPaymentExpiredByAnotherInstanceGetsTheEndToEndIdParkedWithIt() {
        PaymentRequested silent = fakes.payment();
        first.clear(List.of(request(silent)));

        secondExpiring.expire(List.copyOf(fakes.parkedInstructed));

        assertThat(fakes.published)
                .extracting(PaymentOutcome::paymentId, PaymentOutcome::status, PaymentOutcome::endToEndId)
                .containsExactly(tuple(silent.paymentId(), "EXPIRED", silent.endToEndId()));
    }

    @Test
    void theLastWordOfAnotherInstanceCarriesTheParkedEndToEndIdToo() {
        PaymentRequested silent = fakes.payment();
        first.clear(List.of(request(silent)));

        secondExpiring.publishWhatTheLedgerHolds(List.copyOf(fakes.parkedInstructed));

        assertThat(fakes.published).extracting(PaymentOutcome::endToEndId).containsExactly(silent.endToEndId());
    }

    @Test
    void theInstanceThatInstructedKeepsItsOwnIdWhateverAnAnswerCarries() {
        PaymentRequested accepted = fakes.payment();
        first.clear(List.of(request(accepted)));
        ApplyingAnswers firstAnswering =
                new ApplyingAnswers(fakes.settlement, fakes.publisher, fakes.outcomes, firstsMemory);

        firstAnswering.answer(List.of(AnswerRequest.accept(PixWorld.BANK_B, id(accepted))
                .withEndToEndId(fakes.payment().endToEndId())));

        assertThat(fakes.published).extracting(PaymentOutcome::endToEndId).containsExactly(accepted.endToEndId());
    }

    @Test
    void aCarriedIdThatIsNoPixIdIsNotPassedOn() {
        PaymentRequested accepted = fakes.payment();
        first.clear(List.of(request(accepted)));

        secondAnswering.answer(
                List.of(AnswerRequest.accept(PixWorld.BANK_B, id(accepted)).withEndToEndId("not-an-end-to-end-id")));

        assertThat(fakes.published)
                .extracting(PaymentOutcome::status, PaymentOutcome::endToEndId)
                .containsExactly(tuple("SETTLED", null));
    }
}
