package io.pagora.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Specifies the v1 wire format: round trips, the type discriminator, tolerance of new fields, refusal of garbage. */
class PaymentEventCodecTest {

    private static final Instant T0 = Instant.parse("2026-11-21T12:00:00.123456Z");

    @Test
    void everyEventRoundTripsWithItsType() {
        PaymentEvent[] events = {
            new PaymentRequested("0195", "a1", "b2", 100, "BRL", "rent", "E2E1", T0),
            new PaymentSettled("0195", "a1", "b2", 100, T0, T0.plusMillis(5)),
            new PaymentRejected("0195", "a1", "b2", 100, RejectionReason.INSUFFICIENT_FUNDS, "exceeds_credits", T0, T0),
            new PaymentExpired("0195", "a1", "b2", 100, T0, T0.plusSeconds(30))
        };
        for (PaymentEvent event : events) {
            byte[] json = PaymentEventCodec.encode(event);
            assertThat(new String(json, StandardCharsets.UTF_8))
                    .contains("\"type\":\"" + event.getClass().getSimpleName() + "\"");
            assertThat(PaymentEventCodec.decode(json)).isEqualTo(event);
        }
    }

    @Test
    void unknownFieldsAreIgnoredWithinVersionOne() {
        String json =
                "{\"type\":\"PaymentSettled\",\"paymentId\":\"p\",\"payerAccountId\":\"a\",\"payeeAccountId\":\"b\","
                        + "\"amountCentavos\":5,\"acceptedAt\":\"2026-11-21T12:00:00Z\",\"occurredAt\":\"2026-11-21T12:00:01Z\",\"newField\":1}";
        assertThat(PaymentEventCodec.decode(json.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(PaymentSettled.class);
    }

    @Test
    void garbageAndMissingFieldsAreRefusedNotGuessed() {
        assertThatThrownBy(() -> PaymentEventCodec.decode("not json".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PaymentEventCodec.decode("{\"type\":\"Nope\"}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PaymentEventCodec.decode(
                        "{\"type\":\"PaymentSettled\",\"paymentId\":\"p\"}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
