package io.pagora.payments.api;

import static io.pagora.payments.api.PaymentValidationTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.adapter.web.BatchResult;
import io.pagora.payments.api.adapter.web.BatchResultJsonConverter;
import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.payments.api.testsupport.RequestedEvents;
import io.pagora.payments.api.testsupport.RequestedEvents.Event;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.testing.Http;
import io.pagora.testing.ledger.MoneyInvariants;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.converter.AbstractJacksonHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Proves {@code POST /payments/batch}: a batch mixing valid items, invalid ones, keys repeated within
 * the batch and keys used by earlier requests answers one result per item (ACCEPTED, REPLAYED or
 * REJECTED with the item's own problem), and exactly the accepted payments — each once — are on Kafka;
 * replaying the batch answers the same payment ids; batch-level problems (size, shape, body limit) are
 * problem+json; a full batch of 1000 is accepted in one request; no money moves and the ledger balances.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PaymentBatchTest extends PaymentApiIntegrationTest {

    @Autowired
    JsonMapper mapper;

    @Autowired
    RequestMappingHandlerAdapter handlerAdapter;

    Http http;
    Participants participants;
    RequestedEvents events;
    /** customers.get(0 .. PAYERS - 1) are bank 31's, the payer's bank; the others bank 32's (payees only). */
    List<String> customers = new ArrayList<>();

    static final int PAYERS = 6;

    @BeforeAll
    void setUp() {
        participants = new Participants(port);
        http = participants.bank(31); // every payer of these batches is bank 31's customer
        events = new RequestedEvents(kafkaBootstrapServers());
        participants.registerBank(31, "Banco Trinta e Um");
        participants.registerBank(32, "Banco Trinta e Dois");
        for (int i = 0; i < 10; i++) {
            customers.add(participants.openAccount(i < PAYERS ? 31 : 32));
        }
        participants.fundReserve(31, 10_000_00);
        participants.fundCustomer(customers.get(0), 1_000_00);
    }

    @AfterAll
    void tearDown() {
        events.close();
    }

    static Map<String, Object> item(String key, String payer, String payee, Object amount) {
        Map<String, Object> item = new LinkedHashMap<>();
        if (key != null) {
            item.put("idempotencyKey", key);
        }
        item.put("payerAccountId", payer);
        item.put("payeeAccountId", payee);
        item.put("amountCentavos", amount);
        return item;
    }

    @Test
    void mixedBatchAnswersPerItemAndPublishesExactlyTheAcceptedPayments() {
        String a = customers.get(0);
        String b = customers.get(1);
        String c = customers.get(2);
        String unopened = ChartOfAccounts.customer(new BankId(32), 987_654).toString();
        String earlierKey = "earlier-" + UUID.randomUUID();
        Http.Response earlier = http.post("/payments", Http.payment(c, a, 300), "Idempotency-Key", earlierKey);
        assertThat(earlier.status()).isEqualTo(202);
        String earlierId = earlier.json().path("paymentId").asString();
        String key0 = "k0-" + UUID.randomUUID();
        String key1 = "k1-" + UUID.randomUUID();

        List<Object> items = List.of(
                item(key0, a, b, 100), // 0 accepted
                item(key1, b, c, 200), // 1 accepted
                item("k2-" + UUID.randomUUID(), a, unopened, 100), // 2 unknown account
                item("k3-" + UUID.randomUUID(), a, b, 0), // 3 invalid amount
                item(null, a, b, 100), // 4 no key
                42, // 5 not an object
                item(key0, a, b, 100), // 6 same key and body as 0
                item(key1, b, c, 201), // 7 same key as 1, other body
                item(earlierKey, c, a, 300), // 8 replay of an earlier request
                item(earlierKey, c, a, 301), // 9 earlier key, other body
                item("k10-" + UUID.randomUUID(), a, a, 100), // 10 payer = payee
                item("k11-" + UUID.randomUUID(), "not-hex", b, 100)); // 11 malformed id
        Map<TopicPartition, Long> mark = events.mark();

        Http.Response response = http.post("/payments/batch", Map.of("payments", items));

        assertThat(response.status()).as("%s", response).isEqualTo(200);
        JsonNode results = response.json().path("results");
        assertThat(results.size()).isEqualTo(items.size());
        List<String> statuses = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            assertThat(results.get(i).path("index").asInt()).isEqualTo(i);
            statuses.add(results.get(i).path("status").asString());
        }
        assertThat(statuses)
                .containsExactly(
                        "ACCEPTED",
                        "ACCEPTED",
                        "REJECTED",
                        "REJECTED",
                        "REJECTED",
                        "REJECTED",
                        "REPLAYED",
                        "REJECTED",
                        "REPLAYED",
                        "REJECTED",
                        "REJECTED",
                        "REJECTED");
        assertThat(problemTypes(results))
                .containsExactly(
                        null,
                        null,
                        "unknown-account",
                        "invalid-amount",
                        "missing-idempotency-key",
                        "invalid-field",
                        null,
                        "idempotency-key-reused",
                        null,
                        "idempotency-key-reused",
                        "same-payer-and-payee",
                        "invalid-account-id");
        assertThat(results.get(2).path("problem").path("field").asString()).isEqualTo("payments[2].payeeAccountId");
        assertThat(results.get(2).path("problem").path("status").asInt()).isEqualTo(422);
        String id0 = results.get(0).path("paymentId").asString();
        String id1 = results.get(1).path("paymentId").asString();
        assertThat(id0).isNotEqualTo(id1);
        assertThat(results.get(6).path("paymentId").asString()).isEqualTo(id0);
        assertThat(results.get(8).path("paymentId").asString()).isEqualTo(earlierId);
        assertThat(response.json().path("acceptedCount").asInt()).isEqualTo(2);
        assertThat(response.json().path("replayedCount").asInt()).isEqualTo(2);
        assertThat(response.json().path("rejectedCount").asInt()).isEqualTo(8);

        List<Event> published = events.since(mark);
        Map<String, Event> byId = new HashMap<>();
        published.forEach(event -> byId.put(event.payment().paymentId(), event));
        assertThat(published)
                .as("each accepted payment once; nothing for rejected items")
                .hasSize(3);
        assertThat(byId.keySet()).containsExactlyInAnyOrder(id0, id1, earlierId);
        assertThat(byId.get(id0).key()).isEqualTo(a);
        assertThat(byId.get(id0).payment().amountCentavos()).isEqualTo(100);
        assertThat(byId.get(id1).payment().payeeAccountId()).isEqualTo(c);
        assertThat(byId.get(earlierId).payment().amountCentavos()).isEqualTo(300);

        // The whole batch again: the same payments, nothing new.
        Map<TopicPartition, Long> again = events.mark();
        Http.Response replay = http.post("/payments/batch", Map.of("payments", items));
        assertThat(replay.json().path("results").get(0).path("status").asString())
                .isEqualTo("REPLAYED");
        assertThat(replay.json().path("results").get(0).path("paymentId").asString())
                .isEqualTo(id0);
        assertThat(replay.json().path("results").get(1).path("paymentId").asString())
                .isEqualTo(id1);
        assertThat(replay.json().path("acceptedCount").asInt()).isZero();
        assertThat(events.since(again).stream().map(event -> event.payment().paymentId()))
                .containsExactlyInAnyOrder(id0, id1, earlierId);
    }

    @Test
    void fullBatchOfOneThousandIsAcceptedInOneRequest() {
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            String payer = customers.get(i % PAYERS);
            // Never the payer: i % 6 == (i + 1) % 10 would need 6k + 1 ≡ 0 (mod 10).
            String payee = customers.get((i + 1) % customers.size());
            items.add(item("bulk-" + i + "-" + UUID.randomUUID(), payer, payee, 1 + i));
        }
        Map<TopicPartition, Long> mark = events.mark();
        long started = System.nanoTime();

        Http.Response response = http.post("/payments/batch", Map.of("payments", items));

        long millis = (System.nanoTime() - started) / 1_000_000;
        assertThat(response.status()).as("%s", response).isEqualTo(200);
        assertThat(response.json().path("acceptedCount").asInt()).isEqualTo(1000);
        Set<String> ids = new HashSet<>();
        response.json()
                .path("results")
                .forEach(result -> ids.add(result.path("paymentId").asString()));
        assertThat(ids).hasSize(1000);
        List<Event> published = events.since(mark);
        assertThat(published).hasSize(1000);
        assertThat(published.stream().map(event -> event.payment().paymentId()).distinct())
                .hasSize(1000);
        assertThat(published)
                .allSatisfy(event ->
                        assertThat(event.key()).isEqualTo(event.payment().payerAccountId()));
        System.out.println("[PaymentBatchTest] 1000 payments accepted in one request in " + millis + " ms");
    }

    /**
     * The answer is written by hand (BatchResultJsonConverter, Spring MVC's only Jackson converter) as the
     * application's Jackson mapper writes it, under Jackson's converter's Content-Type.
     */
    @Test
    void theAnswerIsTheApplicationsJacksonBytesUnderItsContentType() {
        List<HttpMessageConverter<?>> converters = handlerAdapter.getMessageConverters();
        assertThat(converters.stream().filter(AbstractJacksonHttpMessageConverter.class::isInstance))
                .singleElement()
                .isInstanceOf(BatchResultJsonConverter.class);
        String key = "bytes-" + UUID.randomUUID();
        List<Object> items = List.of(
                item(key, customers.get(0), customers.get(1), 100),
                item(key, customers.get(0), customers.get(1), 100), // replayed within the batch
                item("chave-ção", customers.get(0), customers.get(1), 100),
                item("bytes-" + UUID.randomUUID(), customers.get(0), customers.get(1), "dez"),
                "not an object");

        Http.Response response = http.post("/payments/batch", Map.of("payments", items));

        assertThat(response.status()).as("%s", response).isEqualTo(200);
        assertThat(response.contentType()).isEqualTo("application/json");
        assertThat(response.json().path("replayedCount").asInt()).isEqualTo(1);
        assertThat(response.json().path("rejectedCount").asInt()).isEqualTo(3);
        BatchResult read = mapper.readValue(response.body(), BatchResult.class);
        assertThat(response.body()).isEqualTo(new String(mapper.writeValueAsBytes(read), StandardCharsets.UTF_8));
    }

    @Test
    void batchLevelProblemsAreProblemJson() {
        assertProblem(http.post("/payments/batch", Map.of("payments", List.of())), 422, "invalid-batch-size");
        List<Object> tooMany = new ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            tooMany.add(item("t" + i, customers.get(0), customers.get(1), 1));
        }
        assertProblem(http.post("/payments/batch", Map.of("payments", tooMany)), 422, "invalid-batch-size");
        assertProblem(http.post("/payments/batch", Map.of("items", List.of())), 400, "missing-field");
        assertProblem(http.post("/payments/batch", Map.of("payments", "all of them")), 400, "invalid-field");
        assertProblem(http.post("/payments/batch", "{\"payments\":[}"), 400, "malformed-json");
        assertProblem(
                http.post(
                        "/payments/batch", Map.of("payments", List.of(Map.of("padding", "p".repeat(2 * 1024 * 1024))))),
                413,
                "payload-too-large");
    }

    @Test
    void batchesMoveNoMoneyAndTheLedgerBalances() {
        long before = participants.balance(customers.get(0));
        http.post(
                "/payments/batch",
                Map.of(
                        "payments",
                        List.of(item("nm-" + UUID.randomUUID(), customers.get(0), customers.get(1), 50_00))));
        assertThat(participants.balance(customers.get(0))).isEqualTo(before);
        MoneyInvariants.check(ledger, participants.accounts());
    }

    private static List<String> problemTypes(JsonNode results) {
        List<String> types = new ArrayList<>();
        for (JsonNode result : results) {
            String type = result.path("problem").path("type").asString("");
            types.add(type.isEmpty() ? null : type.substring(type.lastIndexOf('/') + 1));
        }
        return types;
    }
}
