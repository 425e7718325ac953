package io.pagora.payments.api.domain.directory;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.settlement.domain.PixId;
import java.util.Objects;
import java.util.Optional;

/**
 * A payment order whose payee is named by a key (typed, or read from a BR Code), with the end-to-end id the key's
 * look-up reserved: well-formed, its payee account not yet known. The switch finds the account the look-up found
 * and makes it a {@link PaymentRequest}.
 *
 * @param brCode the code the payer scanned, or null for a key typed in
 * @param field the request's field that named the key ({@code payeeKey} or {@code brCode}), for refusals
 */
public record KeyedPayment(
        Id128 payer,
        PixKey payeeKey,
        BrCode brCode,
        long amountCentavos,
        String currency,
        String description,
        String endToEndId,
        String field) {

    public KeyedPayment {
        Objects.requireNonNull(payer, "payer");
        Objects.requireNonNull(payeeKey, "payeeKey");
        Check.that(brCode == null || brCode.key().equals(payeeKey), "a code's payment pays the code's key");
        Check.that(
                endToEndId != null
                        && PixId.problem(endToEndId, PixId.Kind.END_TO_END).isEmpty(),
                "an end-to-end id");
    }

    /** A code that fixes an amount is paid that amount, no other. */
    public Optional<Refusal> check() {
        if (brCode != null && brCode.amountCentavos() != null && brCode.amountCentavos() != amountCentavos) {
            return Optional.of(Refusal.ofField(
                            RefusalReason.BR_CODE_AMOUNT_MISMATCH,
                            "amountCentavos",
                            "the code fixes " + brCode.amountCentavos() + " centavos; this payment is of "
                                    + amountCentavos + ": pay the code's amount, or omit amountCentavos")
                    .withNumber("brCodeAmountCentavos", brCode.amountCentavos()));
        }
        return Optional.empty();
    }

    /** The order, its payee the account the look-up found. */
    public PaymentRequest to(Id128 payee) {
        return new PaymentRequest(payer, payee, amountCentavos, currency, description, endToEndId, null, payeeKey);
    }
}
