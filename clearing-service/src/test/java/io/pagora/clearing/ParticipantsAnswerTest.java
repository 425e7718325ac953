package io.pagora.clearing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pagora.clearing.application.ClearingRequests;
import io.pagora.clearing.application.bank.SettlingWithTheBank;
import io.pagora.clearing.application.participants.ApplyingAnswers;
import io.pagora.clearing.application.participants.InstructingParticipants;
import io.pagora.clearing.testsupport.ClearingTestBase;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRequested;
import io.pagora.events.Topics;
import io.pagora.events.participant.Answer;
import io.pagora.events.participant.AnswerBatch;
import io.pagora.events.participant.ParticipantCodec;
import io.pagora.kernel.Id128;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.PaymentId;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * With {@code pagora.clearing.receiving-bank=participants} the service is wired for participants, not the in-process
 * bank: a requested payment is reserved and instructed, and the bank's answer, stored as payment-api stores it,
 * settles it with the request's end-to-end id.
 */
class ParticipantsAnswerTest extends ClearingTestBase {

    @Test
    void aPaymentIsInstructedAndItsAnswerSettlesIt() {
        world.fundReserve(PixWorld.BANK_A, 1_000_00);
        Id128 payer = world.openCustomers(PixWorld.BANK_A, 1, 1, 100_00).getFirst();
        Id128 payee = world.openCustomers(PixWorld.BANK_B, 1, 1, 0).getFirst();
        PaymentRequested payment = world.payment(payer, payee, 10_00);
        PaymentId id = PaymentId.parse(payment.paymentId());

        ConfigurableApplicationContext app =
                startClearing("pagora.clearing.receiving-bank=participants", "pagora.clearing.pending-timeout=30s");
        assertThat(app.getBean(ClearingRequests.class)).isInstanceOf(InstructingParticipants.class);
        assertThat(app.getBeansOfType(SettlingWithTheBank.class)).isEmpty();
        assertThat(app.getBeansOfType(ApplyingAnswers.class)).hasSize(1);
        publish(List.of(payment));
        Settlement books = new Settlement(ledger, 30);
        await("the payment's chain reserved")
                .atMost(OUTCOMES_TIMEOUT)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> books.reservedPayments(List.of(id)).containsKey(id));
        kafka.publishRaw(
                Topics.PARTICIPANT_ANSWERS,
                PixWorld.BANK_B.toString(),
                ParticipantCodec.encode(new AnswerBatch(
                        "call-1",
                        PixWorld.BANK_B.toString(),
                        List.of(new Answer(payment.paymentId(), true, null, payment.endToEndId())))));

        assertThat(awaitOutcomes(List.of(payment)))
                .extracting(PaymentOutcome::status, PaymentOutcome::endToEndId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("SETTLED", payment.endToEndId()));
    }
}
