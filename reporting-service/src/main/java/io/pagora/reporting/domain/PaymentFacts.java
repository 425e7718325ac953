package io.pagora.reporting.domain;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import java.time.Instant;

/**
 * What one poll says about one payment, merged from all of its events in that poll: the parties and
 * amount (every event carries them), the request details if its PaymentRequested was in the poll, and
 * the first outcome of the poll. Either part may be missing: events arrive in any order.
 *
 * @param request null when the poll had no PaymentRequested for the payment
 * @param outcome null when the poll had no outcome for the payment
 * @param returnOf what the payment returns, from whichever of its events came first (every event of a return carries
 *     it); null for a payment that returns nothing
 */
public record PaymentFacts(
        Id128 paymentId,
        Id128 payerAccountId,
        Id128 payeeAccountId,
        long amountCentavos,
        Instant acceptedAt,
        Request request,
        FinalState outcome,
        ReturnLink returnOf) {

    /** A return's link to the payment it returns, and why (a PIX return reason code). */
    public record ReturnLink(Id128 originalPaymentId, String reason) {}

    public PaymentFacts {
        Check.that(amountCentavos > 0, "amounts are positive: %d", amountCentavos);
        Check.that(request != null || outcome != null, "facts come from at least one event");
    }

    /** The fields only PaymentRequested carries. */
    public record Request(String currency, String description, String endToEndId) {}

    public boolean sameParties(Id128 payer, Id128 payee, long amount) {
        return payerAccountId.equals(payer) && payeeAccountId.equals(payee) && amountCentavos == amount;
    }

    public String describeParties() {
        return describeParties(payerAccountId, payeeAccountId, amountCentavos);
    }

    public static String describeParties(Id128 payer, Id128 payee, long amountCentavos) {
        return amountCentavos + " centavos from " + payer + " to " + payee;
    }
}
