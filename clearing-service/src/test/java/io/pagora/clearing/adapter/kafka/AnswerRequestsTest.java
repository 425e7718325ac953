package io.pagora.clearing.adapter.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.application.participants.AnswerRequest;
import io.pagora.events.participant.Answer;
import io.pagora.events.participant.RefusalCode;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import org.junit.jupiter.api.Test;

/** An answer record becomes the answer clearing applies, its end-to-end id with it; an id naming no payment, none. */
class AnswerRequestsTest {

    private static final BankId BANK = new BankId(22_222_222);
    private static final String PAYMENT = "01a21a0c061daa909fd6699a6b441d00";

    @Test
    void theAnswersEndToEndIdTravelsWithIt() {
        assertThat(AnswersListener.request(BANK, new Answer(PAYMENT, true, null, "E22222222202611262252Xq3vR8sT1aB")))
                .isEqualTo(new AnswerRequest(BANK, PaymentId.parse(PAYMENT), null, "E22222222202611262252Xq3vR8sT1aB"));
        assertThat(AnswersListener.request(BANK, new Answer(PAYMENT, false, RefusalCode.AC03)))
                .isEqualTo(new AnswerRequest(BANK, PaymentId.parse(PAYMENT), RefusalCode.AC03, null));
    }

    @Test
    void anIdThatNamesNoPaymentIsNoAnswer() {
        assertThat(AnswersListener.request(BANK, new Answer("not-a-payment", true, null)))
                .isNull();
    }
}
