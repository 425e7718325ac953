package io.pagora.settlement.domain;

import io.pagora.kernel.Id128;

/**
 * A payment to settle: from one customer account to another, in centavos. {@code acceptedAtMillis} (when the
 * switch accepted it, epoch milliseconds; 0 if unknown) travels in its pending legs' {@code user_data_64}, so an
 * answer that arrives later, in another poll, still knows when the payment started.
 *
 * <p>A return (devolução) is a payment too, from the original payee back to the original payer, with
 * {@code returnOf} naming the original: its chain also debits the original's returnable account, so the ledger
 * refuses what would return more than the original's amount ({@link SettlementPlan}).
 *
 * @param returnOf the payment this one returns (all or part of), or null for a payment that returns nothing
 */
public record Payment(
        PaymentId id, Id128 payer, Id128 payee, long amountCentavos, long acceptedAtMillis, ReturnOf returnOf) {

    /**
     * What a return returns: the original payment, and its amount, which opens the original's returnable account at
     * its first return. {@code originalAmountCentavos} is 0 when the return is read back from its pending legs (the
     * opening is then done: only reserving opens). {@code reasonNumber} is why, as the ledger keeps it (the
     * returned-amount leg's {@code user_data_32}, so a return read back from the ledger still says why): 1 to
     * {@value #REASON_NUMBER_MAX}, each a PIX return reason (the events' ReturnReason numbers them).
     */
    public record ReturnOf(PaymentId original, long originalAmountCentavos, int reasonNumber) {

        public static final int REASON_NUMBER_MAX = 4;

        public ReturnOf {
            java.util.Objects.requireNonNull(original, "original");
            if (originalAmountCentavos < 0) {
                throw new IllegalArgumentException("original amount must not be negative: " + originalAmountCentavos);
            }
            if (reasonNumber < 1 || reasonNumber > REASON_NUMBER_MAX) {
                throw new IllegalArgumentException(
                        "a return reason number is 1.." + REASON_NUMBER_MAX + ": " + reasonNumber);
            }
        }
    }

    public Payment(PaymentId id, Id128 payer, Id128 payee, long amountCentavos) {
        this(id, payer, payee, amountCentavos, 0, null);
    }

    public Payment(PaymentId id, Id128 payer, Id128 payee, long amountCentavos, long acceptedAtMillis) {
        this(id, payer, payee, amountCentavos, acceptedAtMillis, null);
    }

    public Payment {
        if (returnOf != null
                && (returnOf.original().equals(id)
                        || (returnOf.originalAmountCentavos() > 0
                                && amountCentavos > returnOf.originalAmountCentavos()))) {
            throw new IllegalArgumentException("a return returns another payment, at most its amount: " + returnOf);
        }
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
     * A payment is its id, parties, amount and what it returns: when it was accepted is metadata, not identity (a
     * replay re-published with another acceptance time, or a payment read back from a ledger without it, is the same
     * payment), and so is the original's amount (a return read back from its legs does not carry it).
     */
    @Override
    public boolean equals(Object other) {
        return other instanceof Payment that
                && id.equals(that.id)
                && payer.equals(that.payer)
                && payee.equals(that.payee)
                && amountCentavos == that.amountCentavos
                && java.util.Objects.equals(originalOf(this), originalOf(that));
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(id, payer, payee, amountCentavos, originalOf(this));
    }

    public boolean isReturn() {
        return returnOf != null;
    }

    private static PaymentId originalOf(Payment payment) {
        return payment.returnOf == null ? null : payment.returnOf.original();
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
