package io.pagora.clearing.application;

import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentRequested;
import io.pagora.events.ReturnOf;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import java.util.Objects;

/** A requested payment that is valid for settlement: the event (for outcomes) and its domain {@link Payment}. */
public record ClearingRequest(PaymentRequested event, Payment payment) {

    /** Longest reason kept in a dead-letter header; a reason quotes the record, which may be large. */
    static final int REASON_CHARS_MAX = 500;

    public ClearingRequest {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(payment, "payment");
    }

    /** The result of reading one record: a request to clear, or why it cannot be cleared (for the dead letter). */
    public sealed interface Parsed {
        record Valid(ClearingRequest request) implements Parsed {}

        record Invalid(String reason) implements Parsed {}
    }

    /**
     * Decodes a record value and validates it as a payment. Never throws for bad input: garbage, a
     * non-request event, unparseable ids, payer = payee or non-customer accounts are {@link Parsed.Invalid}.
     */
    public static Parsed parse(byte[] value) {
        if (value == null || value.length == 0) {
            return new Parsed.Invalid("empty record value");
        }
        PaymentEvent event;
        try {
            event = PaymentEventCodec.decode(value);
        } catch (IllegalArgumentException e) {
            return new Parsed.Invalid(shorten("undecodable: " + e.getMessage()));
        }
        if (!(event instanceof PaymentRequested requested)) {
            return new Parsed.Invalid("not a PaymentRequested but a "
                    + event.getClass().getSimpleName() + " (payment " + event.paymentId() + ")");
        }
        try {
            return new Parsed.Valid(new ClearingRequest(requested, toPayment(requested)));
        } catch (IllegalArgumentException e) {
            return new Parsed.Invalid(shorten("invalid payment " + requested.paymentId() + ": " + e.getMessage()));
        }
    }

    /** @throws IllegalArgumentException if the event does not describe a settleable payment */
    public static Payment toPayment(PaymentRequested event) {
        if (!"BRL".equals(event.currency())) {
            throw new IllegalArgumentException("only BRL is cleared, not " + event.currency());
        }
        return new Payment(
                PaymentId.parse(event.paymentId()),
                Id128.parse(event.payerAccountId()),
                Id128.parse(event.payeeAccountId()),
                event.amountCentavos(),
                Math.max(0, event.acceptedAt().toEpochMilli()),
                returnOf(event.returnOf()));
    }

    /** A return's original, with its amount (which opens its returnable account); a return must name both and why. */
    private static Payment.ReturnOf returnOf(ReturnOf returnOf) {
        if (returnOf == null) {
            return null;
        }
        if (returnOf.originalPaymentId() == null
                || returnOf.reason() == null
                || returnOf.originalAmountCentavos() <= 0) {
            throw new IllegalArgumentException(
                    "a return names its original, the original's amount and a reason: " + returnOf);
        }
        return new Payment.ReturnOf(
                PaymentId.parse(returnOf.originalPaymentId()),
                returnOf.originalAmountCentavos(),
                returnOf.reason().number);
    }

    static String shorten(String reason) {
        String oneLine = reason.replaceAll("\\s+", " ");
        if (oneLine.length() <= REASON_CHARS_MAX) {
            return oneLine;
        }
        return oneLine.substring(0, REASON_CHARS_MAX) + "…";
    }

    @Override
    public String toString() {
        return "ClearingRequest[" + payment + "]";
    }
}
