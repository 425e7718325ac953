package io.pagora.payments.api.domain;

import io.pagora.kernel.Check;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.access.Caller;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Who may return what: the payee's bank, a settled payment that is not itself a return, within the window, at most
 * what is left of it. A payment is answered as unknown to anyone who may not see it (any caller but its payer's and
 * its payee's banks), so its existence and its payee's bank cannot be probed; its payer's bank, which reads it
 * anyway, is told that only the payee's bank returns it. The ledger enforces the last one again where the money moves (two returns racing for the
 * remainder: one is refused there); these answer the common case at once, with a specific problem, moving nothing.
 */
public final class ReturnRules {

    /** The member of a {@code return-exceeds-returnable} problem that says what is left to return. */
    public static final String RETURNABLE_CENTAVOS = "returnableCentavos";

    private final Duration window;

    public ReturnRules(Duration window) {
        Check.that(window.isPositive(), "a return window is positive: %s", window);
        this.window = window;
    }

    public Duration window() {
        return window;
    }

    /** What cannot change once true: the payment is unknown, another bank's, a return, or not settled. */
    public Optional<Refusal> checkOriginal(Caller caller, PaymentId id, OriginalPayment original) {
        if (original == null || !mayRead(caller, original.payment())) {
            return Optional.of(unknown(id));
        }
        if (!(caller instanceof Caller.Bank bank)
                || !bank.bank().equals(original.payment().payeeBank())) {
            return Optional.of(Refusal.of(
                    RefusalReason.NOT_THE_PAYEES_BANK,
                    "payment " + id + " is returned by its" + " payee's bank, "
                            + original.payment().payeeBank() + ", only"));
        }
        if (original.payment().isReturn()) {
            return Optional.of(Refusal.of(
                    RefusalReason.RETURN_OF_A_RETURN,
                    "payment " + id + " returns payment "
                            + original.payment().returnOf().original() + ": a return is not returned"));
        }
        if (!original.settled()) {
            return Optional.of(Refusal.of(
                    RefusalReason.PAYMENT_NOT_SETTLED,
                    "payment " + id + " is not settled (in"
                            + " flight, refused or expired): only a settled payment is returned"));
        }
        return Optional.empty();
    }

    /** The one answer for a payment the ledger does not hold and for one the caller may not see: the same bytes. */
    private static Refusal unknown(PaymentId id) {
        return Refusal.of(
                RefusalReason.UNKNOWN_PAYMENT,
                "no payment " + id + " is known to the ledger: only a settled payment is returned");
    }

    /** Its payer's and its payee's banks see a payment (as {@code GET /payments/{id}} does); nobody else. */
    public static boolean mayRead(Caller caller, Payment payment) {
        return caller instanceof Caller.Bank bank
                && (bank.bank().equals(payment.payerBank()) || bank.bank().equals(payment.payeeBank()));
    }

    /** What time or other returns may change: the window has closed, or less is left than asked. */
    public Optional<Refusal> checkReturnable(PaymentId id, OriginalPayment original, long amountCentavos, Instant now) {
        if (original.settledAt().plus(window).isBefore(now)) {
            return Optional.of(Refusal.of(
                    RefusalReason.RETURN_WINDOW_CLOSED,
                    "payment " + id + " settled at " + original.settledAt() + ", more than " + window
                            + " ago: past the return window"));
        }
        if (amountCentavos > original.returnableCentavos()) {
            return Optional.of(Refusal.ofField(
                            RefusalReason.RETURN_EXCEEDS_RETURNABLE,
                            "amountCentavos",
                            "amountCentavos " + amountCentavos + " is more than the " + original.returnableCentavos()
                                    + " centavos of payment " + id + " left to return (its amount "
                                    + original.payment().amountCentavos() + " less the returns settled and in flight)")
                    .withNumber(RETURNABLE_CENTAVOS, original.returnableCentavos()));
        }
        return Optional.empty();
    }
}
