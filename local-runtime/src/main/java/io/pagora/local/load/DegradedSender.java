package io.pagora.local.load;

import io.pagora.kernel.Id128;
import io.pagora.local.runfiles.DemoAccounts;
import io.pagora.local.tls.LocalTls;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The demo's sender without k6 (send-degraded): payments between the seeded customers, {@value #SENDERS} at a time,
 * each sent by the payer's bank, a share by the payee's PIX key and a share by a static BR Code of it, each of those
 * after a look-up of the key for the payer's end user (docs/directory.md). Writes the answer lines k6/pagora.js writes
 * (LOG_ANSWERS=1). No arrival-rate control and no latency percentiles: the report's checks still judge every payment.
 */
public final class DegradedSender {

    static final int SENDERS = 8;
    private static final Duration TIMEOUT = Duration.ofSeconds(15);
    private static final Pattern PAYMENT_ID = Pattern.compile("\"paymentId\":\"([^\"]*)\"");
    private static final Pattern END_TO_END_ID = Pattern.compile("\"endToEndId\":\"([^\"]*)\"");
    private static final Pattern PROBLEM_TYPE = Pattern.compile("\"type\":\"https://pagora.io/problems/([^\"]*)\"");

    private final URI api;
    private final List<Id128> customers;
    private final Map<BankId, HttpClient> clients = new HashMap<>();
    private final double keyShare;
    private final double qrShare;

    DegradedSender(DegradedSenderOptions options) throws IOException {
        this.api = LocalTls.requireHttps(options.api());
        this.customers = new ArrayList<>(
                DemoAccounts.read(options.accounts()).customerFundings().keySet());
        if (customers.size() < 2) {
            throw new IllegalArgumentException("fewer than two seeded customers in " + options.accounts());
        }
        for (Id128 customer : customers) {
            clients.computeIfAbsent(
                    ChartOfAccounts.bankOf(customer).orElseThrow(),
                    bank -> LocalTls.client(options.tls().bank(bank), null));
        }
        this.keyShare = options.keyShare();
        this.qrShare = options.qrShare();
    }

    public static void main(String[] args) throws Exception {
        DegradedSenderOptions options = DegradedSenderOptions.parse(args);
        DegradedSender sender = new DegradedSender(options);
        String runId = Long.toString(System.currentTimeMillis() / 1000);
        ExecutorService senders = Executors.newFixedThreadPool(SENDERS);
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(options.answers()))) {
            for (int i = 0; i < options.payments(); i++) {
                String key = "demo-" + runId + "-" + i;
                senders.submit(() -> {
                    String line = sender.sendOne(key);
                    synchronized (out) {
                        out.println(line);
                    }
                });
            }
            senders.shutdown();
            if (!senders.awaitTermination(options.payments() * TIMEOUT.toSeconds() * 2, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the degraded sender did not finish");
            }
        } finally {
            sender.clients.values().forEach(HttpClient::close);
        }
        System.out.printf(
                "sent %d payments (%.0f %% by key, %.0f %% by BR Code)%n",
                options.payments(), options.keyShare() * 100, options.qrShare() * 100);
    }

    /** One payment; its answer line. */
    String sendOne(String key) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        Id128 payer = customers.get(random.nextInt(customers.size()));
        int pick = random.nextInt(customers.size() - 1);
        Id128 payee = customers.get(pick >= customers.indexOf(payer) ? pick + 1 : pick);
        long amount = 100 + random.nextInt(4901);
        HttpClient client = clients.get(ChartOfAccounts.bankOf(payer).orElseThrow());
        double roll = random.nextDouble();
        String body;
        try {
            if (roll < keyShare + qrShare) {
                HttpResponse<String> lookUp = client.send(
                        post("/directory/lookups", "{\"key\":\"" + DemoKeys.keyOf(payee) + "\"}")
                                .header("PI-PayerId", DemoKeys.cpfOf(payer))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                Matcher id = END_TO_END_ID.matcher(lookUp.body());
                if (lookUp.statusCode() != 200 || !id.find()) {
                    return answer(key, lookUp.statusCode(), lookUp.body());
                }
                body = roll < keyShare
                        ? "{\"payerAccountId\":\"%s\",\"payeeKey\":\"%s\",\"amountCentavos\":%d,\"endToEndId\":\"%s\"}"
                                .formatted(payer, DemoKeys.keyOf(payee), amount, id.group(1))
                        : "{\"payerAccountId\":\"%s\",\"brCode\":\"%s\",\"endToEndId\":\"%s\"}"
                                .formatted(
                                        payer,
                                        DemoKeys.brCodeOf(DemoKeys.keyOf(payee), amount, "Cliente Pagora", "Sao Paulo"),
                                        id.group(1));
            } else {
                body = "{\"payerAccountId\":\"%s\",\"payeeAccountId\":\"%s\",\"amountCentavos\":%d}"
                        .formatted(payer, payee, amount);
            }
            HttpResponse<String> response = client.send(
                    post("/payments", body).header("Idempotency-Key", key).build(),
                    HttpResponse.BodyHandlers.ofString());
            return answer(key, response.statusCode(), response.body());
        } catch (IOException unanswered) {
            return "UNANSWERED\t%s\t000".formatted(key);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "UNANSWERED\t%s\t000".formatted(key);
        }
    }

    private HttpRequest.Builder post(String path, String body) {
        return HttpRequest.newBuilder(api.resolve(path))
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    /** The line k6 writes for an answer: ACCEPTED with the id, UNANSWERED for a 5xx, else REFUSED with the type. */
    private static String answer(String key, int status, String body) {
        Matcher id = PAYMENT_ID.matcher(body);
        if (status == 202 && id.find()) {
            return "ACCEPTED\t%s\t%s\t%d\tfirst".formatted(key, id.group(1), status);
        }
        if (status >= 500) {
            return "UNANSWERED\t%s\t%d".formatted(key, status);
        }
        Matcher type = PROBLEM_TYPE.matcher(body);
        return "REFUSED\t%s\t%d\t%s".formatted(key, status, type.find() ? type.group(1) : "");
    }
}
