package io.pagora.clearing.application.participants;

import static io.pagora.clearing.testsupport.UseCaseWorld.id;
import static io.pagora.clearing.testsupport.UseCaseWorld.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.testsupport.Books;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.clearing.testsupport.UseCaseWorld;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRejected;
import io.pagora.events.PaymentRequested;
import io.pagora.events.participant.RefusalCode;
import io.pagora.events.participant.Verdict;
import io.pagora.settlement.domain.VoidCause;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Applying participants' answers, on in-memory fakes: each answer gets the ledger's verdict, the first post or void
 * of a chain wins, and only an answer that took effect publishes its outcome.
 */
class ApplyingAnswersTest {

    private final UseCaseWorld fakes = new UseCaseWorld();
    private final ApplyingAnswers answering =
            new ApplyingAnswers(fakes.settlement, fakes.publisher, fakes.outcomes, new InstructedEndToEndIds());

    @Test
    void anAcceptanceSettlesAndARefusalRejectsWithItsCode() {
        PaymentRequested accepted = reserved();
        PaymentRequested refused = reserved();

        List<Verdict> verdicts = answering.answer(List.of(
                AnswerRequest.accept(PixWorld.BANK_B, id(accepted)),
                AnswerRequest.refuse(PixWorld.BANK_B, id(refused), RefusalCode.AC07)));

        assertThat(verdicts)
                .containsExactly(
                        new Verdict(accepted.paymentId(), Verdict.Code.APPLIED, "SETTLED"),
                        new Verdict(refused.paymentId(), Verdict.Code.APPLIED, "REJECTED"));
        assertThat(((PaymentRejected) fakes.published.get(1)).detail())
                .isEqualTo("refused by the receiving bank: AC07");
        assertThat(Books.check(fakes.world, List.of(accepted, refused), fakes.published))
                .containsOnly(Map.entry(accepted.paymentId(), "SETTLED"), Map.entry(refused.paymentId(), "REJECTED"));
    }

    @Test
    void theSameAnswerAgainGetsTheSameVerdictAndADifferentOneAConflict() {
        PaymentRequested payment = reserved();
        answering.answer(List.of(AnswerRequest.accept(PixWorld.BANK_B, id(payment))));

        List<Verdict> again = answering.answer(List.of(AnswerRequest.accept(PixWorld.BANK_B, id(payment))));
        List<Verdict> different =
                answering.answer(List.of(AnswerRequest.refuse(PixWorld.BANK_B, id(payment), RefusalCode.AC03)));

        assertThat(again).containsExactly(new Verdict(payment.paymentId(), Verdict.Code.APPLIED, "SETTLED"));
        assertThat(different).containsExactly(new Verdict(payment.paymentId(), Verdict.Code.CONFLICT, "SETTLED"));
        assertThat(fakes.published)
                .as("the applied answer's outcome, again; none for the conflict")
                .extracting(PaymentOutcome::status)
                .containsExactly("SETTLED", "SETTLED");
    }

    @Test
    void anAnswerAfterTheExpiryPathVoidedMovesNothing() {
        PaymentRequested payment = reserved();
        fakes.settlement.voidAll(List.of(request(payment).payment()), VoidCause.UNANSWERED);

        assertThat(answering.answer(List.of(AnswerRequest.accept(PixWorld.BANK_B, id(payment)))))
                .containsExactly(new Verdict(payment.paymentId(), Verdict.Code.EXPIRED, "EXPIRED"));
        assertThat(fakes.published).isEmpty();
    }

    @Test
    void anAnswerFromAnotherBankOrForNoReservedPaymentIsUnknown() {
        PaymentRequested payment = reserved();
        PaymentRequested neverReserved = fakes.payment();

        List<Verdict> verdicts = answering.answer(List.of(
                AnswerRequest.accept(PixWorld.BANK_A, id(payment)),
                AnswerRequest.accept(PixWorld.BANK_B, id(neverReserved))));

        assertThat(verdicts)
                .extracting(Verdict::code)
                .containsExactly(Verdict.Code.UNKNOWN_PAYMENT, Verdict.Code.UNKNOWN_PAYMENT);
        assertThat(fakes.published).isEmpty();
        assertThat(fakes.settlement.resolved(List.of(id(payment))))
                .as("still open")
                .containsExactly(false);
    }

    private PaymentRequested reserved() {
        PaymentRequested payment = fakes.payment();
        fakes.settlement.reserve(List.of(request(payment).payment()));
        return payment;
    }
}
