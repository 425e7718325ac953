package io.pagora.reporting.domain;

import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRejected;
import io.pagora.kernel.Id128;
import io.pagora.kernel.Texts;
import io.pagora.settlement.domain.PaymentId;
import java.util.Optional;

/**
 * What a decoded event must satisfy to be projected. An event that breaks a rule would fail the
 * whole poll's transaction (or corrupt the read model), so it goes to the dead-letter topic instead.
 */
public final class EventRules {

    /** Bounds on free text, so one event cannot bloat the read model. */
    public static final int TEXT_LENGTH_MAX = 1_000;

    private EventRules() {}

    /** Why the event cannot be projected; empty if it can. */
    public static Optional<String> problemWith(PaymentEvent event) {
        try {
            PaymentId.parse(event.paymentId());
        } catch (IllegalArgumentException e) {
            return Optional.of("paymentId is not a payment id: " + e.getMessage());
        }
        for (String account : new String[] {event.payerAccountId(), event.payeeAccountId()}) {
            try {
                Id128.parse(account);
            } catch (IllegalArgumentException e) {
                return Optional.of("account id is not a 128-bit hex id: " + e.getMessage());
            }
        }
        if (event.amountCentavos() <= 0) {
            return Optional.of("amountCentavos is not positive: " + event.amountCentavos());
        }
        if (event instanceof PaymentOutcome && event.occurredAt() == null) {
            return Optional.of(event.getClass().getSimpleName() + " lacks occurredAt");
        }
        if (event instanceof PaymentRejected rejected && rejected.reason() == null) {
            return Optional.of("PaymentRejected lacks a reason");
        }
        if (event.returnOf() != null) {
            return problemWithReturn(event);
        }
        return Optional.empty();
    }

    /** A return names the payment it returns (another one) and why. */
    private static Optional<String> problemWithReturn(PaymentEvent event) {
        try {
            if (PaymentId.parse(event.returnOf().originalPaymentId()).toString().equals(event.paymentId())) {
                return Optional.of("a return returns another payment, not itself: " + event.paymentId());
            }
        } catch (IllegalArgumentException | NullPointerException e) {
            return Optional.of("returnOf.originalPaymentId is not a payment id: " + e.getMessage());
        }
        if (event.returnOf().reason() == null) {
            return Optional.of("returnOf lacks a reason");
        }
        return Optional.empty();
    }

    /** Free text as the read model stores it: cleaned (PostgreSQL refuses U+0000 in text) and bounded. */
    static String bounded(String text) {
        return Texts.clean(text, TEXT_LENGTH_MAX);
    }
}
