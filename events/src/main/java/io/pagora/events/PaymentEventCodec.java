package io.pagora.events;

import java.nio.charset.StandardCharsets;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON encoding of {@link PaymentEvent}s, shared by producers and consumers so both sides agree byte
 * for byte. Unknown fields are ignored (forward compatibility within v1); a missing or unknown
 * {@code type} is an error, so the record goes to a dead-letter topic rather than being guessed.
 */
public final class PaymentEventCodec {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    private PaymentEventCodec() {}

    public static byte[] encode(PaymentEvent event) {
        return MAPPER.writeValueAsBytes(event);
    }

    /** @throws IllegalArgumentException if the bytes are not a v1 payment event */
    public static PaymentEvent decode(byte[] json) {
        try {
            PaymentEvent event = MAPPER.readValue(json, PaymentEvent.class);
            if (event == null
                    || event.paymentId() == null
                    || event.payerAccountId() == null
                    || event.payeeAccountId() == null
                    || event.acceptedAt() == null) {
                throw new IllegalArgumentException(
                        "payment event lacks required fields: " + new String(json, StandardCharsets.UTF_8));
            }
            return event;
        } catch (tools.jackson.core.JacksonException e) {
            throw new IllegalArgumentException("not a v1 payment event: " + e.getOriginalMessage(), e);
        }
    }
}
