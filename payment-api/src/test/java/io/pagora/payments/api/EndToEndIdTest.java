package io.pagora.payments.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.payments.api.testsupport.RequestedEvents;
import io.pagora.payments.api.testsupport.RequestedEvents.Event;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PixId;
import io.pagora.testing.Http;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * A payment's PIX end-to-end id, over HTTP against payment-api with a real broker and PostgreSQL: the payer's bank
 * gives one or the switch makes one; it is the payer's bank's, recent, and names one payment — the same request under
 * another key is a replay of that payment, another request with it is refused and publishes nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EndToEndIdTest extends PaymentApiIntegrationTest {

    static final int PAYER_BANK = 31;

    Http http;
    Participants participants;
    RequestedEvents events;
    String payer;
    String payee;

    @BeforeAll
    void setUp() {
        participants = new Participants(port);
        http = participants.bank(PAYER_BANK);
        events = new RequestedEvents(kafkaBootstrapServers());
        participants.registerBank(PAYER_BANK, "Banco Trinta e Um");
        participants.registerBank(32, "Banco Trinta e Dois");
        payer = participants.openAccount(PAYER_BANK);
        payee = participants.openAccount(32);
    }

    @AfterAll
    void tearDown() {
        events.close();
    }

    @Test
    void aPaymentWithoutOneGetsOneOfItsPayersBankThatAReplayKeeps() {
        Instant before = Instant.now();
        Map<TopicPartition, Long> mark = events.mark();
        String key = "made-" + UUID.randomUUID();

        Http.Response first = http.post("/payments", Http.payment(payer, payee, 1_500), "Idempotency-Key", key);
        Http.Response replay = http.post("/payments", Http.payment(payer, payee, 1_500), "Idempotency-Key", key);

        assertThat(first.status()).as("%s", first).isEqualTo(202);
        String made = first.json().path("endToEndId").asString();
        assertThat(PixId.problem(made, PixId.Kind.END_TO_END)).as(made).isEmpty();
        PixId id = new PixId(made);
        assertThat(id.bank()).isEqualTo(new BankId(PAYER_BANK));
        assertThat(id.minute()).isBetween(before.minus(Duration.ofMinutes(1)), Instant.now());
        assertThat(replay.json().path("endToEndId").asString()).isEqualTo(made);
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(events.since(mark))
                .as("both events carry it")
                .hasSize(2)
                .allSatisfy(event -> assertThat(event.payment().endToEndId()).isEqualTo(made));
    }

    @Test
    void theSameIdAndRequestUnderAnotherKeyIsAReplayOfThatPayment() {
        Map<String, Object> body = payment(2_000, endToEndId("replayKey01"));
        Map<TopicPartition, Long> mark = events.mark();

        Http.Response first = http.post("/payments", body, "Idempotency-Key", "first-" + UUID.randomUUID());
        Http.Response second = http.post("/payments", body, "Idempotency-Key", "second-" + UUID.randomUUID());

        assertThat(List.of(first.status(), second.status())).containsOnly(202);
        assertThat(second.json().path("paymentId").asString())
                .isEqualTo(first.json().path("paymentId").asString());
        assertThat(second.json().path("acceptedAt").asString())
                .isEqualTo(first.json().path("acceptedAt").asString());
        assertThat(second.header("Idempotent-Replayed")).isEqualTo("true");
        List<Event> published = events.since(mark);
        assertThat(published.stream().map(Event::payment).distinct())
                .as("one payment, re-published")
                .hasSize(1);
    }

    @Test
    void theSameIdWithAnotherRequestIsRefusedAndPublishesNothing() {
        String endToEndId = endToEndId("reusedId001");
        Http.Response first =
                http.post("/payments", payment(3_000, endToEndId), "Idempotency-Key", "a-" + UUID.randomUUID());
        assertThat(first.status()).as("%s", first).isEqualTo(202);
        Map<TopicPartition, Long> mark = events.mark();

        String reuseKey = "b-" + UUID.randomUUID();
        Http.Response reuse = http.post("/payments", payment(3_001, endToEndId), "Idempotency-Key", reuseKey);
        Http.Response again = http.post("/payments", payment(3_001, endToEndId), "Idempotency-Key", reuseKey);

        for (Http.Response response : List.of(reuse, again)) {
            assertThat(response.status()).as("%s", response).isEqualTo(409);
            assertThat(response.contentType()).startsWith("application/problem+json");
            assertThat(response.problemType()).isEqualTo("end-to-end-id-reused");
            assertThat(response.json().path("detail").asString())
                    .contains(first.json().path("paymentId").asString());
        }
        assertThat(events.since(mark)).as("nothing published").isEmpty();
    }

    @Test
    void aBatchNamingOneIdTwiceAcceptsTheFirstAndReplaysOrRefusesTheOthers() {
        String endToEndId = endToEndId("batchId0001");
        Map<String, Object> same = withKey(payment(4_000, endToEndId), "c-" + UUID.randomUUID());
        Map<String, Object> replay = withKey(payment(4_000, endToEndId), "d-" + UUID.randomUUID());
        Map<String, Object> other = withKey(payment(4_001, endToEndId), "e-" + UUID.randomUUID());
        Map<TopicPartition, Long> mark = events.mark();

        Http.Response response = http.post("/payments/batch", Map.of("payments", List.of(same, replay, other)));

        assertThat(response.status()).as("%s", response).isEqualTo(200);
        JsonNode results = response.json().path("results");
        assertThat(results.get(0).path("status").asString()).isEqualTo("ACCEPTED");
        assertThat(results.get(1).path("status").asString()).isEqualTo("REPLAYED");
        assertThat(results.get(1).path("paymentId").asString())
                .isEqualTo(results.get(0).path("paymentId").asString());
        assertThat(results.get(1).path("endToEndId").asString()).isEqualTo(endToEndId);
        assertThat(results.get(2).path("status").asString()).isEqualTo("REJECTED");
        assertThat(Http.slug(results.get(2).path("problem").path("type").asString()))
                .isEqualTo("end-to-end-id-reused");
        assertThat(events.since(mark).stream()
                        .map(event -> event.payment().paymentId())
                        .distinct())
                .containsExactly(results.get(0).path("paymentId").asString());
    }

    @Test
    void anIdOfAnotherBankOrTooOldOrAheadIsRefusedAsInvalid() {
        Instant now = Instant.now();
        List<String> invalid = List.of(
                PixId.of(PixId.Kind.END_TO_END, new BankId(32), now, "otherBank01")
                        .value(),
                PixId.of(PixId.Kind.END_TO_END, new BankId(PAYER_BANK), now.minus(Duration.ofDays(8)), "tooOld00001")
                        .value(),
                PixId.of(PixId.Kind.END_TO_END, new BankId(PAYER_BANK), now.plus(Duration.ofMinutes(30)), "ahead000001")
                        .value());
        Map<TopicPartition, Long> mark = events.mark();
        for (String endToEndId : invalid) {
            Http.Response response =
                    http.post("/payments", payment(100, endToEndId), "Idempotency-Key", "bad-" + UUID.randomUUID());
            assertThat(response.status()).as("%s: %s", endToEndId, response).isEqualTo(400);
            assertThat(response.problemType()).isEqualTo("invalid-end-to-end-id");
            assertThat(response.json().path("detail").asString()).contains(endToEndId);
        }
        assertThat(events.since(mark)).as("nothing published").isEmpty();
    }

    private static String endToEndId(String suffix) {
        return PixId.of(PixId.Kind.END_TO_END, new BankId(PAYER_BANK), Instant.now(), suffix)
                .value();
    }

    private Map<String, Object> payment(long amountCentavos, String endToEndId) {
        Map<String, Object> body = new HashMap<>(Http.payment(payer, payee, amountCentavos));
        body.put("endToEndId", endToEndId);
        return body;
    }

    private static Map<String, Object> withKey(Map<String, Object> payment, String key) {
        Map<String, Object> item = new HashMap<>(payment);
        item.put("idempotencyKey", key);
        return item;
    }
}
