package io.pagora.clearing.adapter.metrics;

import io.pagora.clearing.application.participants.Instructions;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PaymentId;
import java.util.List;

/** The instructions port, observed: an instructed payment's chain is pending until its outcome ({@link PendingChains}). */
public record ObservedInstructions(Instructions delegate, PendingChains pending) implements Instructions {

    @Override
    public void issue(List<Instruction> instructions) {
        // Only reserved chains are instructed, and a reserved chain's payee is an account of the chart's.
        pending.reserved(instructions.stream()
                .map(Instruction::payment)
                .map(payment -> new PendingChains.Chain(
                        PaymentId.parse(payment.paymentId()),
                        ChartOfAccounts.bankOf(Id128.parse(payment.payeeAccountId()))
                                .orElseThrow()))
                .toList());
        delegate.issue(instructions);
    }
}
