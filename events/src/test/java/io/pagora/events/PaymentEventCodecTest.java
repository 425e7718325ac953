package io.pagora.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Specifies the v1 wire format: round trips, the type discriminator, tolerance of new fields, refusal of garbage. The
 * hand-written codec is held to Jackson's databind, which defined the format: the same bytes for every event, the
 * same event (or a refusal) for every input, over a seeded random corpus and tables of odd and malformed JSON.
 */
class PaymentEventCodecTest {

    private static final Instant T0 = Instant.parse("2026-11-21T12:00:00.123456Z");

    /** The reference: the mapper and checks the codec used before it was written by hand. */
    private static final JsonMapper JACKSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    /** One seed per run (system property {@code pagora.seed}, else random), printed first and in every failure. */
    private static final long SEED = Long.getLong("pagora.seed", new SecureRandom().nextLong());

    private static final int CORPUS_EVENTS = 5_000;
    private static final int MUTANTS_PER_EVENT = 3;

    private static final String VALID =
            "{\"type\":\"PaymentRequested\",\"paymentId\":\"p\",\"payerAccountId\":\"a\",\"payeeAccountId\":\"b\","
                    + "\"amountCentavos\":1,\"acceptedAt\":\"2026-11-21T12:00:00Z\"";

    @BeforeAll
    static void printSeed() {
        System.out.println("PaymentEventCodecTest seed: " + SEED + " (-Dpagora.seed=" + SEED + " replays it)");
    }

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
                    .startsWith("{\"type\":\"" + event.getClass().getSimpleName() + "\"");
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
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a v1 payment event");
        assertThatThrownBy(() -> PaymentEventCodec.decode("{\"type\":\"Nope\"}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a v1 payment event");
        assertThatThrownBy(() -> PaymentEventCodec.decode("{\"paymentId\":\"x\"}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a v1 payment event");
        assertThatThrownBy(() -> PaymentEventCodec.decode(
                        "{\"type\":\"PaymentSettled\",\"paymentId\":\"p\"}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Every subtype, every optional field null or set, any text: Jackson's bytes out, the same event back in. */
    @Test
    void aRandomCorpusIsWrittenAsJacksonWritesItAndReadAsJacksonReadsIt() {
        Random random = new Random(SEED);
        int required = 0;
        for (int i = 0; i < CORPUS_EVENTS; i++) {
            PaymentEvent event = randomEvent(random);
            byte[] expected = JACKSON.writeValueAsBytes(event);
            byte[] json = PaymentEventCodec.encode(event);
            assertThat(new String(json, StandardCharsets.UTF_8))
                    .as("seed %d, event %d", SEED, i)
                    .isEqualTo(new String(expected, StandardCharsets.UTF_8));
            assertThat(json).isEqualTo(expected);
            Object decoded = outcome(json);
            assertThat(decoded).as("seed %d, event %d: %s", SEED, i, event).isEqualTo(jacksonOutcome(json));
            if (event.paymentId() != null
                    && event.payerAccountId() != null
                    && event.payeeAccountId() != null
                    && event.acceptedAt() != null) {
                assertThat(decoded).isEqualTo(event);
                required++;
            }
        }
        assertThat(required).as("events with every required field").isGreaterThan(CORPUS_EVENTS / 2);
    }

    /**
     * The corpus rewritten as other writers may write it (fields shuffled, whitespace, escapes, unknown and repeated
     * fields) and damaged (a byte deleted, changed or cut off): each read as Jackson reads it, or refused as Jackson
     * refuses it.
     */
    @Test
    void rewrittenAndDamagedEventsAreReadOrRefusedAsJacksonDoes() {
        Random random = new Random(SEED + 1);
        int refused = 0;
        int read = 0;
        for (int i = 0; i < CORPUS_EVENTS; i++) {
            byte[] json = PaymentEventCodec.encode(randomEvent(random));
            for (int m = 0; m < MUTANTS_PER_EVENT; m++) {
                byte[] mutant = mutate(random, json);
                Object expected = jacksonOutcome(mutant);
                assertThat(outcome(mutant))
                        .as("seed %d: %s", SEED, new String(mutant, StandardCharsets.UTF_8))
                        .isEqualTo(expected);
                if (expected == Refused.REFUSED) {
                    refused++;
                } else {
                    read++;
                }
            }
        }
        assertThat(refused).as("mutants refused").isGreaterThan(CORPUS_EVENTS / 4);
        assertThat(read).as("mutants read").isGreaterThan(CORPUS_EVENTS / 2);
    }

    /** Valid JSON that is not what the codec writes, each read (or refused) as Jackson does. */
    @Test
    void otherFormsOfTheFieldsAreReadAsJacksonReadsThem() {
        List<String> forms = List.of(
                VALID + "}",
                " \n\t" + VALID + "}\r\n ",
                VALID.replace(":", " : ").replace(",", " ,\n ") + " }",
                VALID.replace("\"p\"", "\"\\u0070\\n\\\"\\\\\\/\\ud83d\\ude00\\u00e9\"") + "}",
                VALID.replace("\"type\"", "\"\\u0074ype\"") + "}",
                VALID + ",\"newField\":{\"nested\":[1,{\"deep\":null}],\"type\":\"PaymentSettled\"}}",
                "{\"paymentId\":\"p\",\"type\":\"PaymentSettled\",\"payerAccountId\":\"a\",\"payeeAccountId\":\"b\","
                        + "\"amountCentavos\":1,\"acceptedAt\":\"2026-11-21T12:00:00Z\"}",
                "{\"amountCentavos\":1,\"acceptedAt\":\"2026-11-21T12:00:00Z\",\"payeeAccountId\":\"b\","
                        + "\"payerAccountId\":\"a\",\"paymentId\":\"p\",\"type\":\"PaymentExpired\"}",
                "{\"type\":null,\"type\":\"PaymentSettled\"," + VALID.substring(VALID.indexOf("\"paymentId\"")) + "}",
                "{\"type\":{\"x\":1},\"type\":\"PaymentSettled\"," + VALID.substring(VALID.indexOf("\"paymentId\""))
                        + "}",
                VALID + ",\"type\":\"PaymentSettled\"}",
                VALID + ",\"paymentId\":\"q\"}",
                VALID + ",\"currency\":\"BRL\",\"description\":\"d\",\"endToEndId\":\"E\",\"returnOf\":null,"
                        + "\"paymentId\":\"q\"}",
                VALID + ",\"currency\":\"BRL\",\"description\":\"d\",\"endToEndId\":\"E\",\"returnOf\":null,"
                        + "\"amountCentavos\":null}",
                VALID + ",\"currency\":5,\"description\":1.50,\"endToEndId\":false}",
                VALID + ",\"currency\":true,\"description\":-0,\"endToEndId\":1e3}",
                VALID.replace("\"amountCentavos\":1", "\"amountCentavos\":\"7\"") + "}",
                VALID.replace("\"amountCentavos\":1", "\"amountCentavos\":\" -7 \"") + "}",
                VALID.replace("\"amountCentavos\":1", "\"amountCentavos\":\"+7\"") + "}",
                VALID.replace("\"amountCentavos\":1", "\"amountCentavos\":5.9") + "}",
                VALID.replace("\"amountCentavos\":1", "\"amountCentavos\":-5.9") + "}",
                VALID.replace("\"amountCentavos\":1", "\"amountCentavos\":1e3") + "}",
                VALID.replace("\"amountCentavos\":1", "\"amountCentavos\":1.5e1") + "}",
                VALID.replace("\"amountCentavos\":1", "\"amountCentavos\":9223372036854775807") + "}",
                VALID.replace("\"amountCentavos\":1", "\"amountCentavos\":-9223372036854775808") + "}",
                VALID.replace("\"amountCentavos\":1", "\"amountCentavos\":\"9223372036854775807\"") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "2026-11-21T12:00:00.5Z") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "2026-11-21T12:00:00.1234Z") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "2026-11-21T12:00:00.000000000Z") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "2026-11-21T12:00:00.Z") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "2026-11-21t12:00:00z") + "}",
                VALID.replace("2026-11-21T12:00:00Z", " 2026-11-21T12:00:00Z ") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "2026-11-21T12:00:00+01:00") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "2026-11-21T12:00:00.5-03:00") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "2026-11-21T12:00:00+00:00") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "2026-11-21T12:00:00+0000") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "2026-11-21T12:00:00+00") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "2026-11-21T24:00:00Z") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "2024-02-29T23:59:59.999999999Z") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "0000-01-01T00:00:00Z") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "+12026-11-21T12:00:00Z") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "-0001-11-21T12:00:00Z") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "1700000000") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "-1700000000") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "+1700000000") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "1700000000.5") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "-1.5") + "}",
                VALID.replace("2026-11-21T12:00:00Z", ".5") + "}",
                VALID.replace("2026-11-21T12:00:00Z", "5.") + "}",
                VALID.replace("\"2026-11-21T12:00:00Z\"", "1700000000") + "}",
                VALID.replace("\"2026-11-21T12:00:00Z\"", "-1700000000") + "}",
                VALID.replace("\"2026-11-21T12:00:00Z\"", "1700000000.123456789") + "}",
                VALID.replace("\"2026-11-21T12:00:00Z\"", "-1.5") + "}",
                VALID.replace("\"2026-11-21T12:00:00Z\"", "1e3") + "}",
                VALID.replace("\"2026-11-21T12:00:00Z\"", "1e-30") + "}",
                VALID.replace("\"2026-11-21T12:00:00Z\"", "1e70") + "}",
                VALID + ",\"occurredAt\":\"garbage\",\"reason\":\"garbage\",\"detail\":{},\"status\":[]}",
                settled(",\"currency\":{},\"description\":[],\"reason\":\"garbage\",\"status\":\"X\"}"),
                settled(",\"occurredAt\":\"\"}"),
                settled(",\"occurredAt\":\"  \"}"),
                settled(",\"occurredAt\":null}"),
                settled(",\"returnOf\":{\"originalPaymentId\":\"o\",\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"reason\":\"MD06\",\"originalAmountCentavos\":\"5\",\"x\":[{}]}}"),
                settled(",\"returnOf\":{\"reason\":\" MD06 \",\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"reason\":\"2\",\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"reason\":\" 2 \",\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"reason\":3,\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"reason\":null,\"originalAmountCentavos\":5,\"originalAmountCentavos\":6}}"),
                settled(",\"returnOf\":{\"reason\":\"md06\",\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"reason\":\"4\",\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"reason\":\"\",\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"reason\":\"  \",\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"reason\":\"01\",\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"reason\":\"0\",\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"reason\":\"+1\",\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"reason\":\"1a\",\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"reason\":\"99999999999\",\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"reason\":[],\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{}}"),
                settled(",\"returnOf\":[]}"),
                settled(",\"returnOf\":\"\"}"),
                settled(",\"returnOf\":5}"),
                rejected("\"INSUFFICIENT_FUNDS\""),
                rejected("\"LEDGER_REFUSED \""),
                rejected("0"),
                rejected("7"),
                rejected("8"),
                rejected("-1"),
                rejected("\"7\""),
                rejected("\"-1\""),
                rejected("1.0"),
                rejected("true"),
                rejected("{}"),
                rejected("[]"),
                rejected("null"),
                rejected("\"insufficient_funds\""),
                "[\"PaymentRequested\"," + VALID.replace("\"type\":\"PaymentRequested\",", "") + "}]",
                "[\"PaymentSettled\"," + VALID + "}]",
                "[5," + VALID + "}]",
                "[null," + VALID + "}]");
        for (String form : forms) {
            byte[] json = form.getBytes(StandardCharsets.UTF_8);
            assertThat(outcome(json)).as(form).isEqualTo(jacksonOutcome(json));
        }
        assertThat(forms.stream()
                        .filter(form -> jacksonOutcome(form.getBytes(StandardCharsets.UTF_8)) instanceof PaymentEvent)
                        .count())
                .as("forms Jackson reads")
                .isGreaterThan(forms.size() / 2);
    }

    /** Input that is not a v1 event: both refuse it, the codec with an IllegalArgumentException. */
    @Test
    void malformedInputIsRefusedAsJacksonRefusesIt() {
        List<String> malformed = List.of(
                "",
                " ",
                "null",
                "true",
                "5",
                "\"PaymentSettled\"",
                "[]",
                "[" + VALID + "}]",
                "[\"PaymentRequested\"]",
                "[\"PaymentRequested\",null]",
                "[\"PaymentRequested\"," + VALID.replace("\"type\":\"PaymentRequested\",", "") + "},1]",
                "[\"PaymentRequested\"," + VALID.replace("\"type\":\"PaymentRequested\",", "") + "}] {}",
                "{}",
                "{\"type\":\"PaymentSettled\"}",
                "{\"type\":\"paymentsettled\"," + VALID.substring(VALID.indexOf("\"paymentId\"")) + "}",
                "{\"type\":5," + VALID.substring(VALID.indexOf("\"paymentId\"")) + "}",
                "{\"type\":null," + VALID.substring(VALID.indexOf("\"paymentId\"")) + "}",
                "{\"type\":[\"PaymentSettled\"]," + VALID.substring(VALID.indexOf("\"paymentId\"")) + "}",
                "{" + VALID.substring(VALID.indexOf("\"paymentId\"")) + "}",
                VALID,
                VALID + ",}",
                VALID + "} {}",
                VALID + "} x",
                VALID + "}}",
                VALID + ",\"x\":NaN}",
                VALID + ",\"x\":'y'}",
                VALID + ",x:1}",
                VALID + ",\"x\":01}",
                VALID + ",\"x\":[1,]}",
                VALID + ",\"x\":\"tab\there\"}",
                VALID + ",\"x\":\"\\q\"}",
                VALID + ",\"x\":\"\\u12\"}",
                VALID + ",\"x\":1 /* comment */}",
                VALID + ",\"paymentId\":null}",
                VALID + ",\"acceptedAt\":null}",
                VALID + ",\"acceptedAt\":\"\"}",
                VALID + ",\"acceptedAt\":\"2026-11-21\"}",
                VALID + ",\"acceptedAt\":\"2026-11-21T12:00:00\"}",
                VALID + ",\"acceptedAt\":\"2026-11-21T12:00Z\"}",
                VALID + ",\"acceptedAt\":\"2026-02-30T12:00:00Z\"}",
                VALID + ",\"acceptedAt\":\"2026-11-21T12:00:60Z\"}",
                VALID + ",\"acceptedAt\":\"2026-11-21T12:00:00.1234567891Z\"}",
                VALID + ",\"acceptedAt\":\"2026-11-21T12:00:00+0100\"}",
                VALID + ",\"acceptedAt\":\"1.2.3\"}",
                VALID + ",\"acceptedAt\":true}",
                VALID + ",\"acceptedAt\":{}}",
                VALID + ",\"acceptedAt\":[]}",
                VALID + ",\"acceptedAt\":99999999999999999}",
                VALID + ",\"amountCentavos\":null}",
                VALID + ",\"amountCentavos\":\"\"}",
                VALID + ",\"amountCentavos\":\"  \"}",
                VALID + ",\"amountCentavos\":\"null\"}",
                VALID + ",\"amountCentavos\":\"lots\"}",
                VALID + ",\"amountCentavos\":\"5.0\"}",
                VALID + ",\"amountCentavos\":true}",
                VALID + ",\"amountCentavos\":{}}",
                VALID + ",\"amountCentavos\":[1]}",
                VALID + ",\"amountCentavos\":9223372036854775808}",
                VALID + ",\"amountCentavos\":1e19}",
                VALID + ",\"paymentId\":[1,2]}",
                VALID + ",\"paymentId\":{\"x\":\"y\"}}",
                VALID + ",\"description\":[]}",
                VALID.replace("\"amountCentavos\":1,", "") + "}",
                VALID.replace("\"payerAccountId\":\"a\",", "") + "}",
                VALID.replace("\"payeeAccountId\":\"b\",", "") + "}",
                VALID.replace(",\"acceptedAt\":\"2026-11-21T12:00:00Z\"", "") + "}",
                "{\"type\":\"PaymentRequested\",\"paymentId\":\"0000000000000000000000000000ab00\","
                        + "\"amountCentavos\":100,\"currency\":\"BRL\"}",
                "{\"type\":\"PaymentExpired\",\"paymentId\":[1,2],\"amountCentavos\":\"lots\"}",
                "{\"type\":\"PaymentRejected\",\u0000\"reason\":\"\u0000\"",
                "{\"type\":\"PaymentSettled\",\"paymentId\":\"00",
                "{".repeat(5_000),
                "[".repeat(5_000),
                settled(",\"returnOf\":{\"originalAmountCentavos\":null}}"),
                settled(",\"returnOf\":{\"reason\":\"XX\",\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"reason\":true,\"originalAmountCentavos\":5}}"),
                settled(",\"returnOf\":{\"originalAmountCentavos\":5,\"reason\":\"MD06\"") + "}",
                settled(",\"returnOf\":\"x\"}"));
        List<byte[]> inputs = new ArrayList<>();
        for (String text : malformed) {
            inputs.add(text.getBytes(StandardCharsets.UTF_8));
        }
        inputs.add(new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef});
        inputs.add(new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xFE});
        inputs.add((VALID + ",\"x\":\"").getBytes(StandardCharsets.UTF_8));
        byte[] badUtf8 = (VALID + ",\"x\":\"??\"}").getBytes(StandardCharsets.UTF_8);
        badUtf8[badUtf8.length - 4] = (byte) 0xC3;
        badUtf8[badUtf8.length - 3] = (byte) 0x28;
        inputs.add(badUtf8);
        for (byte[] input : inputs) {
            String text = new String(input, StandardCharsets.UTF_8);
            assertThat(jacksonOutcome(input)).as("Jackson reads %s", text).isEqualTo(Refused.REFUSED);
            assertThatThrownBy(() -> PaymentEventCodec.decode(input))
                    .as(text)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> JACKSON.readValue((byte[]) null, PaymentEvent.class))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PaymentEventCodec.decode(null)).isInstanceOf(IllegalArgumentException.class);
    }

    /** A lone surrogate has no UTF-8 form: escaped as Jackson escapes it, it reads back as the same string. */
    @Test
    void aLoneSurrogateIsEscapedAsJacksonEscapesIt() {
        for (String text :
                List.of("\ud83d", "a\ude00b", "\ude00\ud83d", "x\ud83d", "\ud83d\ud83d\ude00", "\ude00\ude00")) {
            PaymentEvent event = new PaymentRequested("p", "a", "b", 1, "BRL", text, "E", T0);
            byte[] json = PaymentEventCodec.encode(event);
            assertThat(json).isEqualTo(JACKSON.writeValueAsBytes(event));
            assertThat(new String(json, StandardCharsets.UTF_8)).contains("\\uD");
            assertThat(PaymentEventCodec.decode(json)).isEqualTo(event).isEqualTo(jacksonOutcome(json));
        }
    }

    private static String settled(String rest) {
        return "{\"type\":\"PaymentSettled\",\"paymentId\":\"p\",\"payerAccountId\":\"a\",\"payeeAccountId\":\"b\","
                + "\"amountCentavos\":1,\"acceptedAt\":\"2026-11-21T12:00:00Z\"" + rest;
    }

    private static String rejected(String reason) {
        return "{\"type\":\"PaymentRejected\",\"paymentId\":\"p\",\"payerAccountId\":\"a\",\"payeeAccountId\":\"b\","
                + "\"amountCentavos\":1,\"acceptedAt\":\"2026-11-21T12:00:00Z\",\"reason\":" + reason + "}";
    }

    private enum Refused {
        REFUSED
    }

    /** The codec's event, or REFUSED if it refuses the input (always as an IllegalArgumentException). */
    private static Object outcome(byte[] json) {
        try {
            return PaymentEventCodec.decode(json);
        } catch (IllegalArgumentException e) {
            return Refused.REFUSED;
        }
    }

    /** What the codec decoded before it was written by hand: Jackson's event with its required fields, or REFUSED. */
    private static Object jacksonOutcome(byte[] json) {
        try {
            PaymentEvent event = JACKSON.readValue(json, PaymentEvent.class);
            if (event == null
                    || event.paymentId() == null
                    || event.payerAccountId() == null
                    || event.payeeAccountId() == null
                    || event.acceptedAt() == null) {
                return Refused.REFUSED;
            }
            return event;
        } catch (tools.jackson.core.JacksonException e) {
            return Refused.REFUSED;
        }
    }

    private static PaymentEvent randomEvent(Random random) {
        String paymentId = maybe(random, randomText(random));
        String payer = maybe(random, randomText(random));
        String payee = maybe(random, randomText(random));
        long amount = randomLong(random);
        Instant acceptedAt = maybe(random, randomInstant(random));
        Instant occurredAt = maybe(random, randomInstant(random));
        ReturnOf returnOf = random.nextInt(3) == 0 ? randomReturnOf(random) : null;
        String endToEndId = maybe(random, randomText(random));
        return switch (random.nextInt(4)) {
            case 0 ->
                new PaymentRequested(
                        paymentId,
                        payer,
                        payee,
                        amount,
                        maybe(random, random.nextBoolean() ? "BRL" : randomText(random)),
                        maybe(random, randomText(random)),
                        endToEndId,
                        acceptedAt,
                        returnOf);
            case 1 -> new PaymentSettled(paymentId, payer, payee, amount, acceptedAt, occurredAt, returnOf, endToEndId);
            case 2 ->
                new PaymentRejected(
                        paymentId,
                        payer,
                        payee,
                        amount,
                        maybe(random, pick(random, RejectionReason.values())),
                        maybe(random, randomText(random)),
                        acceptedAt,
                        occurredAt,
                        returnOf,
                        endToEndId);
            default ->
                new PaymentExpired(paymentId, payer, payee, amount, acceptedAt, occurredAt, returnOf, endToEndId);
        };
    }

    private static ReturnOf randomReturnOf(Random random) {
        return new ReturnOf(
                maybe(random, randomText(random)),
                randomLong(random),
                maybe(random, pick(random, ReturnReason.values())));
    }

    /** Null about one time in eight: optional and required fields alike. */
    private static <T> T maybe(Random random, T value) {
        return random.nextInt(8) == 0 ? null : value;
    }

    private static <T> T pick(Random random, T[] values) {
        return values[random.nextInt(values.length)];
    }

    private static long randomLong(Random random) {
        return switch (random.nextInt(5)) {
            case 0 -> 0;
            case 1 -> random.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
            case 2 -> random.nextLong();
            default -> random.nextInt(1_000_000_000);
        };
    }

    private static final String[] PIECES = {
        "a",
        "Z",
        "0",
        "9",
        " ",
        "\"",
        "\\",
        "/",
        "\n",
        "\r",
        "\t",
        "\b",
        "\f",
        "\u0000",
        "\u0001",
        "\u001f",
        "\u007f",
        "\u0080",
        "é",
        "ção",
        "ñ",
        "\u07ff",
        "\u0800",
        "€",
        "\u2028",
        "\u2029",
        "\ufeff",
        "\uffff",
        "😀",
        "\ud800\udc00",
        "\udbff\udfff",
        "<>&'",
        "{\"x\":1}",
        "\\u0041"
    };

    /** Plain ids most of the time, as on the wire; otherwise any mix of characters Jackson treats specially. */
    private static String randomText(Random random) {
        if (random.nextBoolean()) {
            StringBuilder id = new StringBuilder();
            for (int i = 0; i < 32; i++) {
                id.append(Character.forDigit(random.nextInt(16), 16));
            }
            return id.toString();
        }
        StringBuilder text = new StringBuilder();
        int pieces = random.nextInt(12);
        for (int i = 0; i < pieces; i++) {
            text.append(random.nextInt(3) == 0 ? PIECES[random.nextInt(PIECES.length)] : "x");
        }
        return text.toString();
    }

    /** Instants with no fraction, milliseconds, microseconds or nanoseconds; now and then one far off. */
    private static Instant randomInstant(Random random) {
        long seconds = Instant.parse("2026-01-01T00:00:00Z").getEpochSecond() + random.nextInt(400_000_000);
        int nanos = switch (random.nextInt(5)) {
            case 0 -> 0;
            case 1 -> random.nextInt(1000) * 1_000_000;
            case 2 -> random.nextInt(1_000_000) * 1000;
            case 3 -> random.nextInt(1_000_000_000);
            default -> random.nextInt(10) * 100_000_000;
        };
        return switch (random.nextInt(20)) {
            case 0 -> Instant.ofEpochSecond(random.nextLong(-62_167_219_200L, 253_402_300_800L), nanos);
            case 1 -> pick(random, new Instant[] {Instant.MIN, Instant.MAX, Instant.EPOCH});
            case 2 ->
                Instant.ofEpochSecond(random.nextLong(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond()));
            default -> Instant.ofEpochSecond(seconds, nanos);
        };
    }

    /**
     * The event as another writer may write it, or damaged: its fields shuffled, spaced, some strings escaped, an
     * unknown or a repeated field added; or a byte deleted, changed, or the end cut off.
     */
    private static byte[] mutate(Random random, byte[] json) {
        int kind = random.nextInt(6);
        if (kind < 3) {
            return rewrite(random, json);
        }
        byte[] mutant = json.clone();
        int at = random.nextInt(json.length);
        return switch (kind) {
            case 3 -> {
                byte[] shorter = new byte[json.length - 1];
                System.arraycopy(json, 0, shorter, 0, at);
                System.arraycopy(json, at + 1, shorter, at, json.length - at - 1);
                yield shorter;
            }
            case 4 -> {
                String replacements = "{}[],:\"\\ 0aZnt-.e\u0001";
                mutant[at] = (byte) replacements.charAt(random.nextInt(replacements.length()));
                yield mutant;
            }
            default -> java.util.Arrays.copyOf(json, at);
        };
    }

    private static byte[] rewrite(Random random, byte[] json) {
        ObjectNode event = (ObjectNode) JACKSON.readTree(json);
        List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(event.properties());
        if (random.nextBoolean()) {
            Collections.shuffle(fields, random);
        }
        StringBuilder text = new StringBuilder("{");
        String space = random.nextBoolean() ? "" : pick(random, new String[] {" ", "\n", "\t", " \r\n "});
        List<String> members = new ArrayList<>();
        for (Map.Entry<String, JsonNode> field : fields) {
            members.add(member(random, field.getKey(), field.getValue()));
        }
        switch (random.nextInt(6)) {
            case 0 -> members.add(random.nextInt(members.size() + 1), "\"unknown\":{\"a\":[1,2.5,null,true,\"s\"]}");
            case 1 -> {
                Map.Entry<String, JsonNode> again = fields.get(random.nextInt(fields.size()));
                JsonNode value = random.nextBoolean()
                        ? again.getValue()
                        : tools.jackson.databind.node.JsonNodeFactory.instance.nullNode();
                members.add(random.nextInt(members.size() + 1), member(random, again.getKey(), value));
            }
            default -> {}
        }
        text.append(space)
                .append(String.join(space + "," + space, members))
                .append(space)
                .append('}');
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A field, its name and string values now and then escaped character by character ({@code \\u0070}). */
    private static String member(Random random, String name, JsonNode value) {
        String valueText = value.isString() && random.nextInt(4) == 0
                ? escapedAll(value.asString())
                : JACKSON.writeValueAsString(value);
        String nameText = random.nextInt(8) == 0 ? escapedAll(name) : JACKSON.writeValueAsString(name);
        return nameText + ":" + valueText;
    }

    private static String escapedAll(String text) {
        StringBuilder escaped = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            escaped.append(String.format("\\u%04x", (int) text.charAt(i)));
        }
        return escaped.append('"').toString();
    }
}
