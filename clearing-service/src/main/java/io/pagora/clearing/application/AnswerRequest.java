package io.pagora.clearing.application;

import io.pagora.events.participant.RefusalCode;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import java.util.Objects;

/** A bank's answer to an instruction, as clearing receives it: who answered, for which payment, and what. */
public record AnswerRequest(BankId bank, PaymentId payment, RefusalCode refusal) {

    public AnswerRequest {
        Objects.requireNonNull(bank, "bank");
        Objects.requireNonNull(payment, "payment");
    }

    public static AnswerRequest accept(BankId bank, PaymentId payment) {
        return new AnswerRequest(bank, payment, null);
    }

    public static AnswerRequest refuse(BankId bank, PaymentId payment, RefusalCode refusal) {
        return new AnswerRequest(bank, payment, Objects.requireNonNull(refusal, "refusal"));
    }

    public boolean accepts() {
        return refusal == null;
    }
}
