package io.pagora.payments.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pagora.events.Topics;
import io.pagora.ledger.port.Account;
import io.pagora.payments.api.adapter.kafka.KafkaPaymentPublisher;
import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.payments.api.testsupport.RequestedEvents;
import io.pagora.payments.api.testsupport.RequestedEvents.Event;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.PixId;
import io.pagora.testing.Http;
import io.pagora.testing.ledger.MoneyInvariants;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Proves the single-payment command path end to end, over HTTP against a running payment-api with a
 * real Kafka broker and PostgreSQL:
 * <ul>
 *   <li>an accepted payment is answered 202 only once its {@code PaymentRequested} is on Kafka, with the
 *       right fields, keyed by the payer (so on the payer's partition), and a Location at the reporting-service;
 *   <li>the same Idempotency-Key and body answers the same payment id ({@code Idempotent-Replayed: true})
 *       and the events re-published carry that same id and acceptedAt: one logical payment;
 *   <li>the same key with a different body is refused (422 idempotency-key-reused) and publishes nothing;
 *   <li>concurrent requests with one key all answer one payment id;
 *   <li>concurrent requests with different keys are committed in groups, each with its own payment;
 *   <li>accepting payments moves no money (clearing does), and the ledger's money invariants hold.
 * </ul>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PaymentAcceptanceTest extends PaymentApiIntegrationTest {

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MeterRegistry meters;

    Http http;
    Participants participants;
    RequestedEvents events;
    String payer;
    String payee;
    String onUsPayee;

    @BeforeAll
    void setUp() {
        participants = new Participants(port);
        http = participants.bank(11); // the payer's bank
        events = new RequestedEvents(kafkaBootstrapServers());
        participants.registerBank(11, "Banco Onze");
        participants.registerBank(22, "Banco Vinte e Dois");
        participants.fundReserve(11, 1_000_000_00);
        payer = participants.openAccount(11);
        payee = participants.openAccount(22);
        onUsPayee = participants.openAccount(11);
        participants.fundCustomer(payer, 50_000_00);
    }

    @AfterAll
    void tearDown() {
        events.close();
    }

    @Test
    void acceptedPaymentIsOnKafkaBeforeThe202WithItsFieldsKeyedByThePayer() {
        Map<TopicPartition, Long> mark = events.mark();
        Instant before = Instant.now().minusMillis(1);
        String endToEndId = PixId.of(PixId.Kind.END_TO_END, new BankId(11), before, "Fatura42abc")
                .value();
        Map<String, Object> body = Map.of(
                "payerAccountId",
                payer,
                "payeeAccountId",
                payee,
                "amountCentavos",
                12_345,
                "currency",
                "BRL",
                "description",
                "Fatura 42 — março",
                "endToEndId",
                endToEndId);

        Http.Response response = http.post("/payments", body, "Idempotency-Key", "accept-" + UUID.randomUUID());

        assertThat(response.status()).as("%s", response).isEqualTo(202);
        String paymentId = response.json().path("paymentId").asString();
        assertThat(response.json().path("status").asString()).isEqualTo("ACCEPTED");
        assertThat(PaymentId.parse(paymentId).toString()).isEqualTo(paymentId);
        assertThat(response.header("Location")).isEqualTo("http://127.0.0.1:8082/payments/" + paymentId);
        assertThat(response.header("Idempotent-Replayed")).isEqualTo("false");

        List<Event> published = events.since(mark);
        assertThat(published).hasSize(1);
        Event event = published.getFirst();
        assertThat(event.key()).isEqualTo(payer);
        assertThat(event.partition())
                .as("keyed by payer: Kafka's default partitioner on the payer id")
                .isEqualTo(Utils.toPositive(Utils.murmur2(payer.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                        % events.partitionCount());
        assertThat(events.partitionCount()).isEqualTo(Topics.PARTITIONS);
        assertThat(event.payment().paymentId()).isEqualTo(paymentId);
        assertThat(event.payment().payerAccountId()).isEqualTo(payer);
        assertThat(event.payment().payeeAccountId()).isEqualTo(payee);
        assertThat(event.payment().amountCentavos()).isEqualTo(12_345);
        assertThat(event.payment().currency()).isEqualTo("BRL");
        assertThat(event.payment().description()).isEqualTo("Fatura 42 — março");
        assertThat(event.payment().endToEndId()).isEqualTo(endToEndId);
        assertThat(response.json().path("endToEndId").asString()).isEqualTo(endToEndId);
        assertThat(event.payment().acceptedAt())
                .isBetween(before, Instant.now())
                .isEqualTo(Instant.parse(response.json().path("acceptedAt").asString()));
    }

    @Test
    void sameKeyAndBodyAnswerTheSamePaymentAndRepublishOnlyThatPayment() {
        String key = "replay-" + UUID.randomUUID();
        Map<String, Object> body = Http.payment(payer, onUsPayee, 777);
        Map<TopicPartition, Long> mark = events.mark();

        Http.Response first = http.post("/payments", body, "Idempotency-Key", key);
        Http.Response second = http.post("/payments", body, "Idempotency-Key", key);
        // The same logical request with fields in another order and the currency spelled out.
        Http.Response third = http.post(
                "/payments",
                "{\"amountCentavos\":777,\"currency\":\"BRL\",\"payeeAccountId\":\"" + onUsPayee
                        + "\",\"payerAccountId\":\"" + payer + "\"}",
                "Idempotency-Key",
                key);

        assertThat(List.of(first.status(), second.status(), third.status())).containsOnly(202);
        String paymentId = first.json().path("paymentId").asString();
        assertThat(second.json().path("paymentId").asString()).isEqualTo(paymentId);
        assertThat(third.json().path("paymentId").asString()).isEqualTo(paymentId);
        assertThat(first.header("Idempotent-Replayed")).isEqualTo("false");
        assertThat(second.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(second.json().path("acceptedAt").asString())
                .isEqualTo(first.json().path("acceptedAt").asString());
        assertThat(second.header("Location")).isEqualTo(first.header("Location"));

        List<Event> published = events.since(mark);
        assertThat(published)
                .as("re-published, never a second payment")
                .hasSize(3)
                .allSatisfy(event -> {
                    assertThat(event.payment().paymentId()).isEqualTo(paymentId);
                    assertThat(event.key()).isEqualTo(payer);
                });
        assertThat(published.stream().map(Event::payment).distinct())
                .as("identical events")
                .hasSize(1);
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM payment_api.idempotency_keys WHERE idempotency_key = ?", Long.class, key))
                .isEqualTo(1);
    }

    @Test
    void sameKeyWithADifferentBodyIsRefusedAndPublishesNothing() {
        String key = "reuse-" + UUID.randomUUID();
        Http.Response first = http.post("/payments", Http.payment(payer, payee, 1_000), "Idempotency-Key", key);
        assertThat(first.status()).isEqualTo(202);
        Map<TopicPartition, Long> mark = events.mark();

        List<Object> changed = List.of(
                Http.payment(payer, payee, 1_001),
                Http.payment(payer, onUsPayee, 1_000),
                Map.of("payerAccountId", payer, "payeeAccountId", payee, "amountCentavos", 1_000, "description", "x"),
                Map.of(
                        "payerAccountId",
                        payer,
                        "payeeAccountId",
                        payee,
                        "amountCentavos",
                        1_000,
                        "endToEndId",
                        PixId.of(PixId.Kind.END_TO_END, new BankId(11), Instant.now(), "changedE2E1")
                                .value()));
        for (Object body : changed) {
            Http.Response response = http.post("/payments", body, "Idempotency-Key", key);
            assertThat(response.status()).as("%s", response).isEqualTo(422);
            assertThat(response.contentType()).startsWith("application/problem+json");
            assertThat(response.problemType()).isEqualTo("idempotency-key-reused");
            assertThat(response.json().path("detail").asString())
                    .contains(first.json().path("paymentId").asString());
        }
        assertThat(events.since(mark)).as("nothing published").isEmpty();
    }

    @Test
    void concurrentRequestsWithOneKeyAnswerOnePaymentId() throws Exception {
        String key = "race-" + UUID.randomUUID();
        Map<String, Object> body = Http.payment(payer, payee, 4_242);
        Map<TopicPartition, Long> mark = events.mark();
        int requests = 8;
        List<Http.Response> responses = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(requests)) {
            List<Future<Http.Response>> futures = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                futures.add(pool.submit(() -> http.post("/payments", body, "Idempotency-Key", key)));
            }
            for (Future<Http.Response> future : futures) {
                responses.add(future.get());
            }
        }
        assertThat(responses)
                .allSatisfy(response ->
                        assertThat(response.status()).as("%s", response).isEqualTo(202));
        Set<String> ids = new HashSet<>();
        responses.forEach(response -> ids.add(response.json().path("paymentId").asString()));
        assertThat(ids).hasSize(1);
        assertThat(responses.stream().filter(response -> "false".equals(response.header("Idempotent-Replayed"))))
                .as("exactly one request claimed the key")
                .hasSize(1);
        // Requests committed in one group publish the payment once; a later group re-publishes it (a replay).
        assertThat(events.since(mark))
                .hasSizeBetween(1, requests)
                .allSatisfy(event -> assertThat(event.payment().paymentId())
                        .isEqualTo(ids.iterator().next()));
    }

    /**
     * Group commit: concurrent single payments share SQL statements and Kafka waits (fewer publications than
     * requests), yet each request gets its own payment, published once.
     */
    @Test
    void concurrentSinglePaymentsAreCommittedInGroupsEachWithItsOwnOutcome() throws Exception {
        Timer sends = meters.get(KafkaPaymentPublisher.SEND_TIMER)
                .tag("endpoint", "single")
                .timer();
        long sendsBefore = sends.count();
        Map<TopicPartition, Long> mark = events.mark();
        int requests = 64;
        List<Http.Response> responses = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(requests)) {
            List<Future<Http.Response>> futures = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                Map<String, Object> body = Http.payment(payer, payee, 100 + i);
                futures.add(pool.submit(
                        () -> http.post("/payments", body, "Idempotency-Key", "group-" + UUID.randomUUID())));
            }
            for (Future<Http.Response> future : futures) {
                responses.add(future.get());
            }
        }
        assertThat(responses)
                .allSatisfy(response ->
                        assertThat(response.status()).as("%s", response).isEqualTo(202));
        Set<String> ids = new HashSet<>();
        responses.forEach(response -> ids.add(response.json().path("paymentId").asString()));
        assertThat(ids).as("one payment per request").hasSize(requests);
        List<Event> published = events.since(mark);
        assertThat(published).hasSize(requests);
        assertThat(published.stream().map(event -> event.payment().paymentId()).toList())
                .containsExactlyInAnyOrderElementsOf(ids);
        assertThat(sends.count() - sendsBefore)
                .as("Kafka waits: fewer than one per request")
                .isLessThan(requests);
    }

    @Test
    void acceptingPaymentsMovesNoMoneyAndTheLedgerBalances() {
        Map<String, Long> before = new HashMap<>();
        for (String account : List.of(payer, payee, onUsPayee)) {
            before.put(account, participants.balance(account));
        }
        for (int i = 0; i < 5; i++) {
            assertThat(http.post(
                                    "/payments",
                                    Http.payment(payer, payee, 100 + i),
                                    "Idempotency-Key",
                                    "nomove-" + UUID.randomUUID())
                            .status())
                    .isEqualTo(202);
        }
        for (String account : List.of(payer, payee, onUsPayee)) {
            assertThat(participants.balance(account))
                    .as("clearing moves money, not payment-api")
                    .isEqualTo(before.get(account));
        }
        List<Account> accounts = MoneyInvariants.check(ledger, participants.accounts());
        assertThat(accounts.stream().mapToLong(Account::debitsPending).sum()).isZero();
        assertThat(Duration.ofSeconds(1)).isPositive();
    }
}
