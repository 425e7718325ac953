package io.pagora.settlement.domain;

import io.pagora.kernel.Id128;

/**
 * A payment to settle: from one customer account to another, in centavos. {@code acceptedAtMillis} (when the
 * switch accepted it, epoch milliseconds; 0 if unknown) travels in its pending legs' {@code user_data_64}, so an
 * answer that arrives later, in another poll, still knows when the payment started.
 */
public record Payment(PaymentId id, Id128 payer, Id128 payee, long amountCentavos, long acceptedAtMillis) {

    public Payment(PaymentId id, Id128 payer, Id128 payee, long amountCentavos) {
        this(id, payer, payee, amountCentavos, 0);
    }

    public Payment {
        if (acceptedAtMillis < 0) {
            throw new IllegalArgumentException("acceptedAtMillis must not be negative: " + acceptedAtMillis);
        }
        if (amountCentavos <= 0) {
            throw new IllegalArgumentException("amount must be positive: " + amountCentavos);
        }
        if (payer.equals(payee)) {
            throw new IllegalArgumentException("payer and payee must differ: " + payer);
        }
        if (!ChartOfAccounts.isCustomer(payer) || !ChartOfAccounts.isCustomer(payee)) {
            throw new IllegalArgumentException("payer and payee must be customer accounts: " + payer + ", " + payee);
        }
    }

    /**
     * A payment is its id, parties and amount: when it was accepted is metadata, not identity (a replay re-published
     * with another acceptance time, or a payment read back from a ledger without it, is the same payment).
     */
    @Override
    public boolean equals(Object other) {
        return other instanceof Payment that && id.equals(that.id) && payer.equals(that.payer) && payee.equals(that.payee)
                && amountCentavos == that.amountCentavos;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(id, payer, payee, amountCentavos);
    }

    public BankId payerBank() {
        return ChartOfAccounts.bankOf(payer).orElseThrow();
    }

    public BankId payeeBank() {
        return ChartOfAccounts.bankOf(payee).orElseThrow();
    }

    public boolean onUs() {
        return payerBank().equals(payeeBank());
    }
}
