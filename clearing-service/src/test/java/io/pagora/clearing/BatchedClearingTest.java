package io.pagora.clearing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.clearing.testsupport.Books;
import io.pagora.clearing.testsupport.ClearingTestBase;
import io.pagora.clearing.testsupport.Faults;
import io.pagora.events.PaymentRequested;
import io.pagora.events.Topics;
import io.pagora.kernel.Id128;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Proves that clearing batches: a poll of N payments costs O(1) ledger requests (one reserve, at most
 * one post and one void per poll, and one reserve and one void per expiry poll), never O(N) — counted by a decorator
 * around the real PostgreSQL ledger. The payments mix interbank and on-us, and the simulated bank
 * accepts, refuses and ignores some of them, so every path runs at once; the books balance at the end,
 * and the actuator serves health and Prometheus metrics.
 */
class BatchedClearingTest extends ClearingTestBase {

    private static final int PAYMENTS = 1200;

    @Test
    void aPollOfManyPaymentsCostsAConstantNumberOfLedgerRequests() throws Exception {
        List<Id128> customers = world.fundedCustomersAtBothBanks(100_000_000_00L, 40, 1_000_00);
        List<PaymentRequested> payments = world.randomPayments(customers, PAYMENTS, 42, 2_000);
        // All published before clearing starts, so its polls are full.
        publish(payments);

        ConfigurableApplicationContext app = startClearing(
                "spring.main.web-application-type=servlet",
                "server.port=0",
                "pagora.clearing.bank.accept-rate=0.8",
                "pagora.clearing.bank.no-answer-rate=0.1",
                "pagora.clearing.bank.answer-latency=2ms");
        Map<String, String> states = awaitSettledBooks(payments);
        Map<String, Long> census = Books.census(states);
        System.out.println("[BatchedClearingTest] outcomes " + census);
        assertThat(census).containsKeys("SETTLED", "REJECTED", "EXPIRED");

        MeterRegistry meters = app.getBean(MeterRegistry.class);
        long polls = meters.get("pagora.clearing.batch.size").summary().count();
        int reserves = faults.ledgerRequests(Faults.Phase.RESERVE);
        int posts = faults.ledgerRequests(Faults.Phase.POST);
        int voids = faults.ledgerRequests(Faults.Phase.VOID);
        System.out.printf(
                "[BatchedClearingTest] %d payments in %d polls: %d reserve, %d post, %d void requests%n",
                PAYMENTS, polls, reserves, posts, voids);
        // One per poll, plus one per expiry poll (which reserves before it voids; each also sends one void).
        assertThat(reserves)
                .as("one reserve request per poll and per expiry poll")
                .isBetween((int) polls, (int) polls + voids);
        assertThat(posts).as("at most one post request per poll").isLessThanOrEqualTo((int) polls);
        assertThat(faults.bankCalls()).as("one receiving-bank call per poll").isEqualTo((int) polls);
        assertThat(reserves + posts + voids)
                .as("ledger requests are O(polls), not O(payments)")
                .isLessThanOrEqualTo(PAYMENTS / 20);

        HttpClient http = HttpClient.newHttpClient();
        String base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
        HttpResponse<String> health = http.send(
                HttpRequest.newBuilder(URI.create(base + "/actuator/health"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"UP\"").contains("\"ledger\"").contains("\"backend\":\"postgresql\"");
        HttpResponse<String> prometheus = scrapeOnceEveryConsumerFetched(http, base);
        assertThat(prometheus.statusCode()).isEqualTo(200);
        assertThat(prometheus.body()).contains("pagora_clearing_outcomes_total").contains("pagora_clearing_batch_size");
        // The meters the dashboards read (infra/grafana): ledger requests, results and batch fill, latency
        // accept→settled, pending chains, and the consumers' lag named by listener.
        assertThat(prometheus.body())
                .contains(
                        "pagora_clearing_accept_to_settled_seconds_bucket{",
                        "pagora_ledger_request_transfers_bucket{",
                        "pagora_clearing_pending_chains{",
                        "pagora_clearing_pending_oldest_age_seconds{",
                        "application=\"clearing-service\"")
                .containsPattern("pagora_ledger_request_seconds_count\\{[^}]*operation=\"create_transfers\"")
                .containsPattern("pagora_ledger_results_total\\{[^}]*code=\"ok\"[^}]*operation=\"create_transfers\"")
                .containsPattern(
                        "kafka_consumer_fetch_manager_records_lag_max\\{[^}]*client_id=\"clearing-payments-0\"")
                .containsPattern("kafka_consumer_fetch_manager_records_lag_max\\{[^}]*client_id=\"clearing-expiry-0\"");
        assertThat(meters.get("pagora.clearing.accept.to.settled").timer().count())
                .as("an accept→settled sample per settled payment")
                .isGreaterThanOrEqualTo(census.get("SETTLED"));
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(meters.get("pagora.clearing.pending.chains")
                                .gauge()
                                .value())
                        .as("every chain is resolved once every outcome is acknowledged")
                        .isZero());
        assertThat(kafka.records(Topics.PAYMENTS_REQUESTED_DEAD_LETTER))
                .as("no dead letters")
                .isEmpty();
    }

    /**
     * The metrics page, once the expiry consumer has fetched: Kafka names a consumer's lag only after its first fetch,
     * and on a slow machine the expiry consumer (no record for it in this test) may still be joining its group when
     * the payments are all final. Bounded: after 30 s the last page is returned, and the assertions say what lacks.
     */
    private static HttpResponse<String> scrapeOnceEveryConsumerFetched(HttpClient http, String base) throws Exception {
        HttpRequest scrape = HttpRequest.newBuilder(URI.create(base + "/actuator/prometheus"))
                .timeout(Duration.ofSeconds(10))
                .build();
        AtomicReference<HttpResponse<String>> page = new AtomicReference<>();
        try {
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        page.set(http.send(scrape, HttpResponse.BodyHandlers.ofString()));
                        return page.get().body().contains("client_id=\"clearing-expiry-0\"");
                    });
        } catch (ConditionTimeoutException lastPage) {
            // The caller's assertions on the last page say what it lacks.
        }
        return page.get();
    }
}
