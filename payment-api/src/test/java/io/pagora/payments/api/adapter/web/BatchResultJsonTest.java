package io.pagora.payments.api.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.intake.PaymentIntake.Outcome;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.service.config.ServiceDefaults;
import io.pagora.settlement.domain.PaymentId;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.ConfigDataApplicationContextInitializer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.ResolvableType;
import org.springframework.http.MediaType;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.mock.http.MockHttpOutputMessage;
import tools.jackson.databind.json.JsonMapper;

/**
 * The batch's answer written by hand is byte for byte what Spring MVC's Jackson converter writes for it, on the
 * mapper Spring Boot builds from payment-api's own configuration: every status, replays, problems with fields and
 * numbers, any text in a problem's detail, an empty batch and a batch of 10,000; and the converter's headers are
 * Jackson's converter's.
 */
class BatchResultJsonTest {

    /**
     * Text a detail may hold (it may quote a request's text): what JSON escapes, what it passes as is, UTF-8 of 1 to 4
     * bytes, and halves of surrogate pairs alone (a request's JSON may escape one), which Jackson escapes.
     */
    private static final String[] PIECES = {
        "a",
        "Z",
        "0",
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
        "ç",
        "ã",
        "\ud800",
        "\udc00",
        "\ud83d",
        "\u00a0",
        "€",
        "\u2028",
        "\u2029",
        "中",
        "\ufeff",
        "\uffff",
        "😀",
        "𝄞",
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "payments[3].amountCentavos",
        "must be positive, got -1"
    };

    private static final RefusalReason[] REASONS = RefusalReason.values();

    private static JsonMapper applicationMapper;

    @BeforeAll
    static void theApplicationsMapper() {
        AtomicReference<JsonMapper> mapper = new AtomicReference<>();
        new ApplicationContextRunner()
                .withInitializer(new ConfigDataApplicationContextInitializer())
                .withUserConfiguration(ServiceDefaults.class)
                .withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getEnvironment().getProperty("spring.application.name"))
                            .as("payment-api's application.yaml is read")
                            .isEqualTo("payment-api");
                    mapper.set(context.getBean(JsonMapper.class));
                });
        applicationMapper = mapper.get();
    }

    @Test
    void aRandomCorpusOfBatchesIsWrittenAsJacksonWritesIt() {
        for (int seed = 1; seed <= 300; seed++) {
            Random random = new Random(seed);
            BatchResult result = batch(random, random.nextInt(40));
            assertSameBytes(result, "seed " + seed);
        }
    }

    @Test
    void anEmptyBatchAndOneOfTenThousandItemsAreWrittenAsJacksonWritesThem() {
        BatchResult empty = new BatchResult.Tally(0).result();
        assertSameBytes(empty, "empty");
        assertThat(new String(BatchResultJson.write(empty), StandardCharsets.UTF_8))
                .isEqualTo("{\"acceptedCount\":0,\"replayedCount\":0,\"rejectedCount\":0,\"unknownCount\":0,"
                        + "\"results\":[]}");

        BatchResult large = batch(new Random(43), 10_000);
        assertThat(large.results()).hasSize(10_000);
        assertSameBytes(large, "10,000 items");
    }

    @Test
    void everyStatusAndProblemShapeIsWrittenAsJacksonWritesIt() {
        Instant at = Instant.parse("2026-11-26T22:52:00.374Z");
        BatchResult.Tally tally = new BatchResult.Tally(8);
        tally.add(new Outcome.Accepted(paymentId(1), at, false, "E1000111120261126225200000000001"));
        tally.add(new Outcome.Accepted(paymentId(2), Instant.EPOCH, true, "E1000111120261126225200000000002"));
        tally.add(new Outcome.Accepted(paymentId(3), Instant.parse("2026-11-26T22:52:00Z"), false, "e"));
        tally.add(new Outcome.Accepted(paymentId(4), Instant.parse("2026-11-26T22:52:00.000000001Z"), true, "e"));
        tally.add(new Outcome.Rejected(Refusal.ofField(RefusalReason.INVALID_AMOUNT, "amountCentavos", "got 0")));
        tally.add(new Outcome.Rejected(Refusal.of(RefusalReason.RETURN_EXCEEDS_RETURNABLE, "more than is left")
                .withNumber("returnableCentavos", 1_500L)
                .withNumber("requestedCentavos", Long.MAX_VALUE)));
        tally.add(new Outcome.Unknown(Refusal.of(RefusalReason.OUTCOME_UNKNOWN, "not confirmed \"in time\"")));
        tally.add(new Outcome.Rejected(Refusal.retryAfter(RefusalReason.PARTICIPANT_RATE_LIMITED, 3, "slow down")));
        BatchResult result = tally.result();

        assertSameBytes(result, "every status");
        assertThat(new String(BatchResultJson.write(result), StandardCharsets.UTF_8))
                .contains("{\"index\":0,\"status\":\"ACCEPTED\",\"paymentId\":\"" + paymentId(1)
                        + "\",\"acceptedAt\":\"2026-11-26T22:52:00.374Z\",\"endToEndId\":"
                        + "\"E1000111120261126225200000000001\"}")
                .contains("\"problem\":{\"type\":\"https://pagora.io/problems/invalid-amount\",\"title\":"
                        + "\"Invalid amount\",\"status\":422,\"detail\":\"got 0\",\"field\":"
                        + "\"payments[4].amountCentavos\"}");
    }

    /** Members beside a problem's own (a null, an int, a long) as Jackson writes a map's entries, in their order. */
    @Test
    void aProblemsMembersAreWrittenInTheirMapsOrderWhateverTheirValue() {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("z", 1);
        problem.put("a", null);
        problem.put("\u00e7\n", Long.MIN_VALUE);
        problem.put("m", "text");
        BatchResult result =
                new BatchResult(0, 0, 1, 0, List.of(new BatchResult.Item(0, "REJECTED", null, null, null, problem)));

        assertThat(BatchResultJson.handWritable(result)).isTrue();
        assertSameBytes(result, "members");
    }

    /** The converter is Jackson's converter on the same mapper: the same headers for each media type, the same body. */
    @Test
    void theConverterWritesTheSameHeadersAndBodyAsJacksonsConverter() throws Exception {
        BatchResult result = batch(new Random(7), 25);
        Map<String, Object> odd = new LinkedHashMap<>();
        odd.put("when", Instant.EPOCH); // not a member a problem holds: written by Jackson
        BatchResult oddResult =
                new BatchResult(0, 0, 1, 0, List.of(new BatchResult.Item(0, "REJECTED", null, null, null, odd)));
        assertThat(BatchResultJson.handWritable(oddResult)).isFalse();
        JacksonJsonHttpMessageConverter jackson = new JacksonJsonHttpMessageConverter(applicationMapper);
        BatchResultJsonConverter hand = new BatchResultJsonConverter(applicationMapper);
        for (MediaType type : List.of(
                MediaType.APPLICATION_JSON,
                MediaType.parseMediaType("application/json;charset=UTF-8"),
                MediaType.parseMediaType("application/json;charset=UTF-16"),
                MediaType.parseMediaType("application/vnd.pagora+json"))) {
            for (BatchResult body : List.of(result, oddResult)) {
                assertThat(hand.canWrite(BatchResult.class, type)).isEqualTo(jackson.canWrite(BatchResult.class, type));
                MockHttpOutputMessage expected = new MockHttpOutputMessage();
                jackson.write(body, ResolvableType.forClass(Object.class), type, expected, null);
                MockHttpOutputMessage actual = new MockHttpOutputMessage();
                hand.write(body, ResolvableType.forClass(Object.class), type, actual, null);

                assertThat(actual.getHeaders().toSingleValueMap())
                        .as("%s", type)
                        .isEqualTo(expected.getHeaders().toSingleValueMap());
                assertThat(actual.getBodyAsBytes()).as("%s", type).isEqualTo(expected.getBodyAsBytes());
            }
        }
        assertThat(hand.getSupportedMediaTypes()).isEqualTo(jackson.getSupportedMediaTypes());
    }

    /** Instants of every shape ISO-8601 gives them: a fraction of 0, 3, 6 or 9 digits, years of 1 to 6 digits. */
    @Test
    void instantsAreWrittenAsJacksonWritesThem() {
        List<Instant> instants = List.of(
                Instant.EPOCH,
                Instant.parse("2026-11-26T22:52:00Z"),
                Instant.parse("2026-11-26T22:52:00.100Z"),
                Instant.parse("2026-11-26T22:52:00.000100Z"),
                Instant.parse("2026-11-26T22:52:00.000000100Z"),
                Instant.parse("2026-11-26T22:52:00.999999999Z"),
                Instant.parse("0000-01-01T00:00:00Z"),
                Instant.parse("0999-12-31T23:59:59.5Z"),
                Instant.parse("1969-12-31T23:59:59.999Z"),
                Instant.parse("9999-12-31T23:59:59.999999999Z"),
                Instant.parse("+10000-01-01T00:00:00Z"),
                Instant.parse("-0001-12-31T23:59:59.000001Z"),
                Instant.MIN,
                Instant.MAX);
        BatchResult.Tally tally = new BatchResult.Tally(instants.size());
        for (int i = 0; i < instants.size(); i++) {
            tally.add(new Outcome.Accepted(paymentId(i), instants.get(i), false, "e"));
        }
        assertSameBytes(tally.result(), "instants");
    }

    /** The bytes Spring MVC writes (Jackson's UTF-8 generator), compared as text first to show where they differ. */
    private static void assertSameBytes(BatchResult result, String what) {
        byte[] hand = BatchResultJson.write(result);
        byte[] jackson = applicationMapper.writeValueAsBytes(result);
        assertThat(new String(hand, StandardCharsets.UTF_8))
                .as(what)
                .isEqualTo(new String(jackson, StandardCharsets.UTF_8));
        assertThat(hand).as(what).isEqualTo(jackson);
    }

    /** A batch as the controller tallies it: outcomes of every kind, in random order. */
    static BatchResult batch(Random random, int items) {
        BatchResult.Tally tally = new BatchResult.Tally(items);
        long second = random.nextLong(4_102_444_800L);
        for (int i = 0; i < items; i++) {
            if (random.nextInt(3) == 0) { // else the same second as the item before: a batch's are accepted together
                second = random.nextLong(4_102_444_800L);
            }
            tally.add(
                    switch (random.nextInt(4)) {
                        case 0, 1 ->
                            new Outcome.Accepted(
                                    paymentId(random.nextLong()),
                                    Instant.ofEpochSecond(second, nanos(random)),
                                    random.nextBoolean(),
                                    random.nextInt(8) == 0 ? text(random) : "E" + Long.toString(random.nextLong(), 36));
                        case 2 -> new Outcome.Rejected(refusal(random));
                        default -> new Outcome.Unknown(refusal(random));
                    });
        }
        return tally.result();
    }

    /** None, millis, micros or nanos: ISO-8601 writes 0, 3, 6 or 9 digits. */
    private static int nanos(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> random.nextInt(1_000) * 1_000_000;
            case 2 -> random.nextInt(1_000_000) * 1_000;
            default -> random.nextInt(1_000_000_000);
        };
    }

    private static Refusal refusal(Random random) {
        RefusalReason reason = REASONS[random.nextInt(REASONS.length)];
        Refusal refusal = random.nextBoolean()
                ? Refusal.of(reason, text(random))
                : Refusal.ofField(reason, random.nextBoolean() ? "amountCentavos" : text(random), text(random));
        int numbers = random.nextInt(3);
        for (int n = 0; n < numbers; n++) {
            refusal = refusal.withNumber("number" + n + text(random), random.nextLong());
        }
        return refusal;
    }

    private static String text(Random random) {
        StringBuilder text = new StringBuilder();
        int pieces = random.nextInt(12);
        for (int i = 0; i < pieces; i++) {
            text.append(PIECES[random.nextInt(PIECES.length)]);
        }
        if (random.nextInt(4) == 0) {
            text.appendCodePoint(random.nextInt(Character.MAX_CODE_POINT + 1));
        }
        return text.toString();
    }

    private static PaymentId paymentId(long low) {
        return new PaymentId(new Id128(0x0194_0000_0000_0000L, low & ~0xFFL | 0x100L));
    }
}
