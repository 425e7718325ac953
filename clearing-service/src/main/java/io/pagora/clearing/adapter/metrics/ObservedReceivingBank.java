package io.pagora.clearing.adapter.metrics;

import io.pagora.clearing.application.bank.ReceivingBank;
import io.pagora.clearing.domain.BankAnswer;
import io.pagora.settlement.domain.Payment;
import java.util.List;

/**
 * The receiving-bank port, observed: clearing asks the bank only about payments whose chains it has
 * just reserved, so every payment passing here starts a pending chain ({@link PendingChains}).
 */
public record ObservedReceivingBank(ReceivingBank delegate, PendingChains pending) implements ReceivingBank {

    @Override
    public List<BankAnswer> decide(List<Payment> payments) {
        pending.reserved(payments.stream()
                .map(payment -> new PendingChains.Chain(payment.id(), payment.payeeBank()))
                .toList());
        return delegate.decide(payments);
    }
}
