package io.pagora.payments.api.domain;

import io.pagora.kernel.Check;
import io.pagora.settlement.domain.Payment;
import java.time.Instant;
import java.util.Objects;

/**
 * A payment as the ledger holds it when its payee's bank asks to return it: its parties and amount (read back from
 * its pending legs), when it settled (its first post leg's ledger timestamp; null while not settled: in flight,
 * refused or expired), and how much of it is left to return (its amount less the returns settled and in flight,
 * from its returnable account; its whole amount before its first return).
 */
public record OriginalPayment(Payment payment, Instant settledAt, long returnableCentavos) {

    public OriginalPayment {
        Objects.requireNonNull(payment, "payment");
        Check.that(
                returnableCentavos >= 0 && returnableCentavos <= payment.amountCentavos(),
                "returnable %d within the amount %d of %s",
                returnableCentavos,
                payment.amountCentavos(),
                payment.id());
    }

    public boolean settled() {
        return settledAt != null;
    }
}
