package io.pagora.clearing.adapter.metrics;

import io.pagora.clearing.application.Instructions;
import io.pagora.events.PaymentRequested;
import io.pagora.settlement.domain.PaymentId;
import java.time.Instant;
import java.util.List;

/** The instructions port, observed: an instructed payment's chain is pending until its outcome ({@link PendingChains}). */
public record ObservedInstructions(Instructions delegate, PendingChains pending) implements Instructions {

    @Override
    public void issue(List<PaymentRequested> payments, Instant answerBy) {
        pending.reserved(payments.stream().map(payment -> PaymentId.parse(payment.paymentId())).toList());
        delegate.issue(payments, answerBy);
    }
}
