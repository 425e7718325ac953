package io.pagora.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.adapter.bank.SimulatedReceivingBank;
import io.pagora.e2e.support.Books;
import io.pagora.e2e.support.Books.View;
import io.pagora.e2e.support.Pagora;
import io.pagora.e2e.support.Participants;
import io.pagora.e2e.support.Participants.Customer;
import io.pagora.e2e.support.PaymentBook;
import io.pagora.e2e.support.PaymentBook.Answer;
import io.pagora.e2e.support.PaymentBook.Order;
import io.pagora.e2e.support.PromQl;
import io.pagora.e2e.support.Quiescence;
import io.pagora.e2e.support.Repository;
import io.pagora.e2e.support.ServiceApplication;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.Http;
import io.pagora.testing.ServerBacked;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Proves that the Grafana dashboards ({@code infra/grafana/dashboards/*.json}) show real data: with the
 * three services running and payments of every outcome sent (settled, rejected by the ledger, refused
 * by the receiving bank, expired, refused by the API, replayed), every metric any panel's {@code expr}
 * (or template variable) selects is exported by at least one service's {@code /actuator/prometheus}.
 * A renamed meter or a typo in a dashboard fails here, with the list of missing names and where they
 * are used. The receiving banks' dashboard ({@value #PARTICIPANTS_DASHBOARD}) shows the participants' protocol, which
 * this run does not use: {@code ParticipantProtocolEndToEndTest} checks its metrics the same way. It also checks the metric contract the load tests rely on (docs/operations.md, Observability),
 * the {@code application} tag on every Pagora meter, and that no tag value is a payment or account id.
 */
@ServerBacked
class DashboardMetricsTest {

    /** The dashboard of the participants' protocol, checked by the test that runs it. */
    static final String PARTICIPANTS_DASHBOARD = "participants.json";

    static final double ACCEPT_RATE = 0.5;
    static final double NO_ANSWER_RATE = 0.25;
    static final int BANK_A = 11_111_111;
    static final int BANK_B = 22_222_222;

    /** Series Prometheus makes itself for every target; no service exports them. */
    static final Set<String> MADE_BY_PROMETHEUS = Set.of(
            "up",
            "scrape_duration_seconds",
            "scrape_samples_scraped",
            "scrape_samples_post_metric_relabeling",
            "scrape_series_added");

    /** The metric names of the contract with the load tests, as Prometheus series, by service. */
    static final Map<String, List<String>> CONTRACT = Map.of(
            "payment-api",
                    List.of(
                            "http_server_requests_seconds_bucket",
                            "pagora_payments_accept_seconds_bucket",
                            "pagora_payments_kafka_send_seconds_bucket",
                            "pagora_payments_accepted_total",
                            "pagora_payments_rejections_total",
                            "pagora_ledger_request_seconds_bucket",
                            "kafka_producer_record_send_total"),
            "clearing-service",
                    List.of(
                            "pagora_clearing_outcomes_total",
                            "pagora_clearing_accept_to_settled_seconds_bucket",
                            "pagora_ledger_request_seconds_bucket",
                            "pagora_ledger_request_transfers_bucket",
                            "pagora_ledger_results_total",
                            "pagora_clearing_pending_chains",
                            "pagora_clearing_pending_oldest_age_seconds",
                            "kafka_consumer_fetch_manager_records_lag_max",
                            "kafka_consumer_fetch_manager_records_lag"),
            "reporting-service",
                    List.of(
                            "pagora_reporting_rows_projected_total",
                            "pagora_reporting_settled_to_visible_seconds_bucket",
                            "pagora_reporting_accept_to_visible_seconds_bucket",
                            "kafka_consumer_fetch_manager_records_lag_max",
                            "kafka_consumer_fetch_manager_records_lag",
                            "http_server_requests_seconds_bucket",
                            "pagora_reconciliation_checked_total",
                            "pagora_reconciliation_mismatches_total",
                            "pagora_reconciliation_lag_seconds",
                            "pagora_reconciliation_last_run_timestamp_seconds"));

    /** How long the scrapes may take to show every metric (Kafka client metrics refresh every 5 s). */
    static final Duration SCRAPE_PATIENCE = Duration.ofSeconds(30);

    /** A label value that is a payment, transfer or account id (32 hex digits): unbounded cardinality. */
    static final Pattern ID_LABEL = Pattern.compile("=\"[0-9a-f]{32}\"");

    final SimulatedReceivingBank bankSimulator = new SimulatedReceivingBank(ACCEPT_RATE, NO_ANSWER_RATE, Duration.ZERO);

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void everyMetricTheDashboardsQueryIsExportedOnceTrafficFlowed() {
        try (Pagora pagora =
                Pagora.start(new Pagora.Options("postgresql", ACCEPT_RATE, NO_ANSWER_RATE, Duration.ofSeconds(1), 1))) {
            ConfigurableApplicationContext clearing = pagora.startClearing();
            // clearing-service serves only its actuator, over plain HTTP; the other two are scraped as the operator.
            Http clearingHttp = new Http("http://127.0.0.1:" + ServiceApplication.port(clearing));
            sendPaymentsOfEveryOutcome(pagora);

            Map<String, Http> services = new LinkedHashMap<>();
            services.put("payment-api", pagora.paymentApi().asOperator());
            services.put("clearing-service", clearingHttp);
            services.put("reporting-service", pagora.reporting().asOperator());
            Map<String, Set<String>> usedBy = metricsUsedByDashboards(
                    file -> !file.getFileName().toString().equals(PARTICIPANTS_DASHBOARD));
            Pagora.log("the dashboards query %d metrics: %s", usedBy.size(), new TreeSet<>(usedBy.keySet()));

            // Kafka client metrics appear when the clients' binders next look for them (every 5 s): scrape
            // again, a bounded number of times, until nothing is missing.
            Map<String, String> scrapes = new LinkedHashMap<>();
            Map<String, PromQl.Exposition> expositions = new LinkedHashMap<>();
            Map<String, Set<String>> missing = new TreeMap<>();
            Map<String, List<String>> contractMissing = new TreeMap<>();
            long deadline = System.nanoTime() + SCRAPE_PATIENCE.toNanos();
            do {
                services.forEach((service, http) -> scrapes.put(service, scrape(http)));
                scrapes.forEach((service, text) -> expositions.put(service, PromQl.Exposition.parse(text)));
                PromQl.Exposition all = expositions.values().stream()
                        .reduce(PromQl.Exposition::plus)
                        .orElseThrow();
                missing.clear();
                usedBy.forEach((name, where) -> {
                    if (!MADE_BY_PROMETHEUS.contains(name) && !all.provides(name)) {
                        missing.put(name, where);
                    }
                });
                contractMissing.clear();
                CONTRACT.forEach((service, names) -> {
                    List<String> absent = names.stream()
                            .filter(name -> !expositions.get(service).provides(name))
                            .toList();
                    if (!absent.isEmpty()) {
                        contractMissing.put(service, absent);
                    }
                });
            } while ((!missing.isEmpty() || !contractMissing.isEmpty()) && System.nanoTime() < deadline && pause());
            expositions.forEach((service, exposition) -> Pagora.log(
                    "%s exports %s",
                    service,
                    exposition.seriesNames().stream()
                            .filter(name -> name.startsWith("pagora_"))
                            .sorted()
                            .toList()));
            keepForInspection(scrapes);

            // 1. Every metric a dashboard selects is exported by some service.
            assertThat(missing)
                    .as("metrics the dashboards query but no service exports (name -> where it is used)")
                    .isEmpty();
            // 2. The contract with the load tests, service by service.
            assertThat(contractMissing)
                    .as("contract metrics a service does not export (service -> names)")
                    .isEmpty();

            // 3. Every Pagora meter names its service; no tag value is an id (bounded cardinality).
            scrapes.forEach((service, text) -> {
                List<String> untagged = text.lines()
                        .filter(line -> line.startsWith("pagora_"))
                        .filter(line -> !line.contains("application=\"" + service + "\""))
                        .limit(5)
                        .toList();
                assertThat(untagged)
                        .as("%s series without application=\"%s\"", service, service)
                        .isEmpty();
                List<String> idLabelled = text.lines()
                        .filter(line -> ID_LABEL.matcher(line).find())
                        .limit(5)
                        .toList();
                assertThat(idLabelled)
                        .as("%s series with a 128-bit id as a label value", service)
                        .isEmpty();
            });
        }
    }

    /**
     * Payments of every kind, until the receiving-bank simulator (a pure function of the payment id) has
     * accepted, refused and ignored at least one each; then waits until every one is final and every
     * consumer caught up, so that every meter has samples.
     */
    private void sendPaymentsOfEveryOutcome(Pagora pagora) {
        Participants participants = new Participants(pagora.paymentApi());
        participants.registerBank(BANK_A, "Banco A");
        participants.registerBank(BANK_B, "Banco B");
        participants.fundReserve(BANK_A, 100_000_000L);
        participants.fundReserve(BANK_B, 100_000_000L);
        Customer payer = participants.openCustomer(BANK_A, false);
        participants.fundCustomer(payer, 10_000_000L);
        Customer poor = participants.openCustomer(BANK_A, true);
        participants.fundCustomer(poor, 10L);
        Customer payee = participants.openCustomer(BANK_B, false);
        Customer onUsPayee = participants.openCustomer(BANK_A, false);

        PaymentBook book = new PaymentBook(pagora.paymentApi());
        Set<Class<?>> answers = new HashSet<>();
        Order first = Order.of(payer.id(), payee.id(), 1_000L);
        for (int i = 0; i < 200 && answers.size() < 3; i++) {
            Order order = i == 0 ? first : Order.of(payer.id(), i % 3 == 0 ? onUsPayee.id() : payee.id(), 100L + i);
            List<Answer> sent = i % 2 == 0 ? List.of(book.pay(order)) : book.payBatch(List.of(order));
            Answer answer = sent.getFirst();
            assertThat(answer.accepted()).as("%s", answer).isTrue();
            answers.add(
                    bankSimulator.answer(PaymentId.parse(answer.paymentId())).getClass());
        }
        assertThat(answers)
                .as("the simulator accepted, refused and ignored some")
                .hasSize(3);
        assertThat(book.pay(Order.of(poor.id(), payee.id(), 5_000L)).accepted())
                .as("accepted, refused by the ledger")
                .isTrue();
        assertThat(book.pay(first).replayed())
                .as("the same key and request again: replayed")
                .isTrue();
        Answer unknown = book.pay(Order.of(payer.id(), Id128.parse("04000000000000000000000000000001"), 100L));
        assertThat(unknown.status()).as("%s", unknown).isEqualTo(422);

        Map<PaymentId, View> views =
                Books.awaitFinalStates(pagora.reporting(), book.accepted(), Duration.ofSeconds(60));
        Quiescence.await(pagora, Duration.ofSeconds(60));
        Map<String, Long> outcomes =
                views.values().stream().collect(Collectors.groupingBy(View::outcome, Collectors.counting()));
        Pagora.log("payments final: %s", outcomes);
        assertThat(outcomes)
                .containsKeys("SETTLED", "EXPIRED", "REJECTED(INSUFFICIENT_FUNDS)", "REJECTED(RECEIVING_BANK_REFUSED)");
    }

    /** The scrapes, as files under target/dashboard-metrics/, to read after a failure (or to see what is exported). */
    private static void keepForInspection(Map<String, String> scrapes) {
        try {
            Path dir = Files.createDirectories(Path.of("target", "dashboard-metrics"));
            for (Map.Entry<String, String> scrape : scrapes.entrySet()) {
                Files.writeString(dir.resolve(scrape.getKey() + ".prom"), scrape.getValue());
            }
            Pagora.log("scrapes kept in %s", dir.toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean pause() {
        Books.sleep(1_000);
        return true;
    }

    private static String scrape(Http service) {
        Http.Response response = service.get("/actuator/prometheus");
        assertThat(response.status())
                .as("%s/actuator/prometheus: %s", service.base(), response.status())
                .isEqualTo(200);
        return response.body();
    }

    /** Metric name -> the dashboards (of those {@code which} selects) and panels whose queries select it. */
    static Map<String, Set<String>> metricsUsedByDashboards(java.util.function.Predicate<Path> which) {
        Map<String, Set<String>> usedBy = new TreeMap<>();
        List<Path> dashboards = dashboardFiles().stream().filter(which).toList();
        assertThat(dashboards)
                .as("dashboards in %s", Repository.path("infra/grafana/dashboards"))
                .isNotEmpty();
        for (Path file : dashboards) {
            JsonNode dashboard = Http.JSON.readTree(Repository.read(file));
            String where = file.getFileName().toString();
            collectExpressions(dashboard, where, usedBy);
            for (JsonNode variable : dashboard.path("templating").path("list")) {
                JsonNode query = variable.path("query");
                String text = query.isObject() ? query.path("query").asString("") : query.asString("");
                for (String name : PromQl.variableQueryMetricNames(text)) {
                    usedBy.computeIfAbsent(name, key -> new TreeSet<>())
                            .add(where + " variable $" + variable.path("name").asString());
                }
            }
        }
        return usedBy;
    }

    private static void collectExpressions(JsonNode node, String where, Map<String, Set<String>> usedBy) {
        if (node.isObject()) {
            String here = node.has("title") && node.has("type")
                    ? where + " / " + node.path("title").asString()
                    : where;
            if (node.path("expr").isString()) {
                String expression = node.path("expr").asString();
                Set<String> names = PromQl.metricNames(expression);
                assertThat(names).as("%s: no metric in %s", here, expression).isNotEmpty();
                names.forEach(name ->
                        usedBy.computeIfAbsent(name, key -> new TreeSet<>()).add(here));
            }
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                collectExpressions(field.getValue(), here, usedBy);
            }
        } else if (node.isArray()) {
            for (JsonNode element : node) {
                collectExpressions(element, where, usedBy);
            }
        }
    }

    static List<Path> dashboardFiles() {
        try (Stream<Path> files = Files.list(Repository.path("infra/grafana/dashboards"))) {
            return new ArrayList<>(files.filter(file -> file.toString().endsWith(".json"))
                    .sorted()
                    .toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
