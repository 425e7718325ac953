package io.pagora.clearing.application.participants;

import io.pagora.events.participant.RefusalCode;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import java.util.Objects;

/**
 * A bank's answer to an instruction, as clearing receives it: who answered, for which payment, and what; with the
 * payment's end-to-end id when the answer carries it (null otherwise).
 */
public record AnswerRequest(BankId bank, PaymentId payment, RefusalCode refusal, String endToEndId) {

    public AnswerRequest {
        Objects.requireNonNull(bank, "bank");
        Objects.requireNonNull(payment, "payment");
    }

    public AnswerRequest(BankId bank, PaymentId payment, RefusalCode refusal) {
        this(bank, payment, refusal, null);
    }

    public static AnswerRequest accept(BankId bank, PaymentId payment) {
        return new AnswerRequest(bank, payment, null);
    }

    public static AnswerRequest refuse(BankId bank, PaymentId payment, RefusalCode refusal) {
        return new AnswerRequest(bank, payment, Objects.requireNonNull(refusal, "refusal"));
    }

    /** The same answer, carrying its payment's end-to-end id. */
    public AnswerRequest withEndToEndId(String id) {
        return new AnswerRequest(bank, payment, refusal, id);
    }

    public boolean accepts() {
        return refusal == null;
    }
}
