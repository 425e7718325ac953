package io.pagora.local.bench;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.local.tls.LocalTls;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * The read side under the bench's load: while the window runs, every {@link #PERIOD} one {@code GET /payments/{id}}
 * of a payment drawn at random from the read model and one {@code GET /accounts/{id}/statement} of a random
 * customer, each over mutual TLS as the bank that owns it, on one kept-alive connection per bank (the handshake is
 * not timed: a bank's back office keeps its connections). Old and new payments alike: at 10 million rows a random
 * lookup reads pages the buffer cache may not hold, which is what a growing read model costs a reader.
 *
 * <p>Sequential and slow on purpose (a few queries a second): it measures what a reader waits while the platform is
 * busy, not what the read side can take. A query answered with anything but 200 is a failure the bench reports.
 */
public final class QueryProbe {

    static final Duration PERIOD = Duration.ofMillis(500);
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** The payments drawn from the read model once, at the start: a 1 % sample of its pages, at most this many. */
    static final int SAMPLE_MAX = 5_000;

    static final int STATEMENT_LIMIT = 50;
    /** While the sample is empty, drawn again every this many rounds. */
    static final int RESAMPLE_ROUNDS = 10;
    /** A window of an hour at two queries a period: far below; the bound keeps a mistaken window finite. */
    static final int QUERIES_MAX = 100_000;

    enum Kind {
        PAYMENT,
        STATEMENT
    }

    /** One kind's latencies (ms, sorted) and the answers that were not 200. */
    record Figures(double[] latenciesMs, int failed) {
        Map<String, Object> json() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("n", latenciesMs.length);
            json.put("failed", failed);
            if (latenciesMs.length > 0) {
                json.put("p50_ms", BenchReport.round(Bench.percentile(latenciesMs, 50)));
                json.put("p99_ms", BenchReport.round(Bench.percentile(latenciesMs, 99)));
                json.put("max_ms", BenchReport.round(latenciesMs[latenciesMs.length - 1]));
            }
            return json;
        }

        /** The report's line: "n=240 p50 6.1 ms p99 31.4 ms max 40.2 ms, 0 not 200 (under load, as the owning bank)". */
        String line() {
            if (latenciesMs.length == 0) {
                return String.format(Locale.ROOT, "n=0 (none answered 200), %d not 200", failed);
            }
            return String.format(
                    Locale.ROOT,
                    "n=%d  p50 %.1f ms  p99 %.1f ms  max %.1f ms, %d not 200 (under load, as the owning bank)",
                    latenciesMs.length,
                    Bench.percentile(latenciesMs, 50),
                    Bench.percentile(latenciesMs, 99),
                    latenciesMs[latenciesMs.length - 1],
                    failed);
        }
    }

    /** The bench's gate over the probe: every query answered 200, and both kinds measured at all. */
    static List<String> gateFailures(Map<Kind, Figures> figures) {
        List<String> failures = new ArrayList<>();
        figures.forEach((kind, figure) -> {
            if (figure.failed() > 0) {
                failures.add(figure.failed() + " " + kind.name().toLowerCase(Locale.ROOT)
                        + " queries under load were not answered 200");
            }
            if (figure.latenciesMs().length == 0) {
                failures.add("the query probe measured no " + kind.name().toLowerCase(Locale.ROOT) + " query");
            }
        });
        return failures;
    }

    private record Payment(String id, BankId owner) {}

    private final URI reporting;
    private final LocalTls tls;
    private final List<Id128> customers;
    private final DataSource database;
    private final Map<BankId, HttpClient> clients = new HashMap<>();
    private final Set<BankId> warmed = new HashSet<>();
    private final Map<Kind, List<Double>> latenciesMs = new LinkedHashMap<>();
    private final Map<Kind, Integer> failed = new LinkedHashMap<>();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final SplittableRandom random = new SplittableRandom(19);
    private Thread thread;

    QueryProbe(URI reporting, LocalTls tls, List<Id128> customers, DataSource database) {
        Check.that(!customers.isEmpty(), "the probe reads statements of seeded customers");
        this.reporting = LocalTls.requireHttps(reporting);
        this.tls = tls;
        this.customers = List.copyOf(customers);
        this.database = database;
        for (Kind kind : Kind.values()) {
            latenciesMs.put(kind, new ArrayList<>());
            failed.put(kind, 0);
        }
    }

    void start() {
        Check.that(thread == null, "started once");
        thread = Thread.ofPlatform().name("bench-query-probe").daemon().start(this::run);
    }

    /**
     * Stops it and returns each kind's figures: the query under way is interrupted (counted neither as an answer nor
     * as a failure), and the wait for it is bounded.
     */
    Map<Kind, Figures> stop() throws InterruptedException {
        stopped.set(true);
        thread.interrupt();
        Check.that(thread.join(TIMEOUT.plusSeconds(5)), "the query probe stopped");
        clients.values().forEach(HttpClient::close); // a --find-max run makes a probe per step
        Map<Kind, Figures> figures = new LinkedHashMap<>();
        synchronized (latenciesMs) {
            latenciesMs.forEach((kind, values) -> {
                double[] sorted =
                        values.stream().mapToDouble(Double::doubleValue).toArray();
                Arrays.sort(sorted);
                figures.put(kind, new Figures(sorted, failed.get(kind)));
            });
        }
        return figures;
    }

    private void run() {
        List<Payment> payments = List.of();
        long next = System.nanoTime();
        for (int round = 0; round < QUERIES_MAX / 2 && !stopped.get(); round++) {
            if (payments.isEmpty() && round % RESAMPLE_ROUNDS == 0) {
                payments = samplePayments(); // empty while the read model is (a window without a warm-up)
            }
            if (!payments.isEmpty()) {
                Payment payment = payments.get(random.nextInt(payments.size()));
                query(Kind.PAYMENT, payment.owner(), "/payments/" + payment.id());
            }
            Id128 customer = customers.get(random.nextInt(customers.size()));
            query(
                    Kind.STATEMENT,
                    ChartOfAccounts.bankOf(customer).orElseThrow(),
                    "/accounts/" + customer + "/statement?limit=" + STATEMENT_LIMIT);
            next += PERIOD.toNanos();
            try {
                Thread.sleep(Duration.ofNanos(Math.max(0, next - System.nanoTime())));
            } catch (InterruptedException e) {
                return; // stopped
            }
        }
    }

    private List<Payment> samplePayments() {
        try {
            return sample();
        } catch (SQLException e) {
            Bench.say("query probe: no payments sampled from the read model (" + e + ")");
            return List.of();
        }
    }

    private List<Payment> sample() throws SQLException {
        List<Payment> payments = new ArrayList<>();
        try (Connection connection = database.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT payment_id, payer_bank_ispb FROM reporting.payments "
                        + "TABLESAMPLE SYSTEM (1) WHERE payer_bank_ispb IS NOT NULL LIMIT " + SAMPLE_MAX)) {
            while (rows.next()) {
                payments.add(new Payment(rows.getString(1), new BankId(rows.getInt(2))));
            }
        }
        return payments;
    }

    private void query(Kind kind, BankId owner, String path) {
        HttpClient client = clients.computeIfAbsent(owner, bank -> LocalTls.client(tls.bank(bank), null));
        HttpRequest request = HttpRequest.newBuilder(reporting.resolve(path))
                .timeout(TIMEOUT)
                .GET()
                .build();
        warm(client, owner);
        long start = System.nanoTime();
        int status;
        try {
            status =
                    client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            status = -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        double ms = (System.nanoTime() - start) / 1e6;
        synchronized (latenciesMs) {
            if (status == 200) {
                latenciesMs.get(kind).add(ms);
            } else {
                failed.merge(kind, 1, Integer::sum);
            }
        }
    }

    /** The first call per bank opens its connection (TLS handshake), untimed. */
    private void warm(HttpClient client, BankId owner) {
        if (!warmed.add(owner)) {
            return;
        }
        try {
            client.send(
                    HttpRequest.newBuilder(reporting.resolve("/stats"))
                            .timeout(TIMEOUT)
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            // the timed query will fail and be counted
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
