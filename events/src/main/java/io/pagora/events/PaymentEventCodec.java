package io.pagora.events;

import io.pagora.events.json.JsonText;

/**
 * JSON encoding of {@link PaymentEvent}s, shared by producers and consumers so both sides agree byte for byte. Unknown
 * fields are ignored (forward compatibility within v1); a missing or unknown {@code type} is an error, so the record
 * goes to a dead-letter topic rather than being guessed.
 *
 * <p>The wire format is the one Jackson's databind defines for the annotated records ({@code type} first, then every
 * record component in order, nulls written, instants as ISO-8601); it is written and read by hand because databind
 * was a third of reporting's and a sixth of clearing's CPU. PaymentEventCodecTest holds both directions to Jackson:
 * the same bytes out, the same event (or a refusal) in.
 */
public final class PaymentEventCodec {

    /** About what one event takes as JSON: the buffer's first size. */
    private static final int EVENT_BYTES_TYPICAL = 384;

    private PaymentEventCodec() {}

    public static byte[] encode(PaymentEvent event) {
        JsonText json = new JsonText(EVENT_BYTES_TYPICAL).beginObject();
        switch (event) {
            case PaymentRequested e -> {
                parties(json, "PaymentRequested", e)
                        .field("currency", e.currency())
                        .field("description", e.description())
                        .field("endToEndId", e.endToEndId())
                        .field("acceptedAt", e.acceptedAt());
                returnOf(json, e.returnOf());
            }
            case PaymentSettled e -> {
                parties(json, "PaymentSettled", e)
                        .field("acceptedAt", e.acceptedAt())
                        .field("occurredAt", e.occurredAt());
                returnOf(json, e.returnOf()).field("endToEndId", e.endToEndId());
            }
            case PaymentRejected e -> {
                parties(json, "PaymentRejected", e)
                        .field("reason", e.reason() == null ? null : e.reason().name())
                        .field("detail", e.detail())
                        .field("acceptedAt", e.acceptedAt())
                        .field("occurredAt", e.occurredAt());
                returnOf(json, e.returnOf()).field("endToEndId", e.endToEndId());
            }
            case PaymentExpired e -> {
                parties(json, "PaymentExpired", e)
                        .field("acceptedAt", e.acceptedAt())
                        .field("occurredAt", e.occurredAt());
                returnOf(json, e.returnOf()).field("endToEndId", e.endToEndId());
            }
        }
        return json.endObject().bytes();
    }

    /** @throws IllegalArgumentException if the bytes are not a v1 payment event */
    public static PaymentEvent decode(byte[] json) {
        return PaymentEventReader.read(json);
    }

    private static JsonText parties(JsonText json, String type, PaymentEvent event) {
        return json.field("type", type)
                .field("paymentId", event.paymentId())
                .field("payerAccountId", event.payerAccountId())
                .field("payeeAccountId", event.payeeAccountId())
                .field("amountCentavos", event.amountCentavos());
    }

    private static JsonText returnOf(JsonText json, ReturnOf returnOf) {
        if (returnOf == null) {
            return json.nullField("returnOf");
        }
        return json.beginObject("returnOf")
                .field("originalPaymentId", returnOf.originalPaymentId())
                .field("originalAmountCentavos", returnOf.originalAmountCentavos())
                .field(
                        "reason",
                        returnOf.reason() == null ? null : returnOf.reason().name())
                .endObject();
    }
}
