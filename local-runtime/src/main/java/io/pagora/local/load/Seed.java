package io.pagora.local.load;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.local.runfiles.DemoAccounts;
import io.pagora.local.tls.LocalTls;
import io.pagora.settlement.domain.BankId;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Seeds the participants of a demo, bench, verify or chaos run through payment-api, each call made by the
 * participant the authorization matrix wants: the operator registers each bank and funds its reserve, then
 * the bank opens and funds its own customers and registers their keys (its client certificate, {@link LocalTls}).
 * Writes what it did
 * to the accounts file ({@link DemoAccounts}' format), which the report, verify, chaos-check and k6
 * ({@code ACCOUNTS_FILE}) read. The one seeding path of {@code infra/local/pagora}, which chooses the banks'
 * ISPBs ({@code seeded_ispbs}) and issues their certificates before calling this.
 *
 * <pre>
 *   java -jar local-runtime.jar seed --out=var/demo/accounts.tsv --ispbs=10001111,10002222
 *       [--api-url=https://127.0.0.1:8080] [--tls-dir=var/tls]
 *       [--customers-per-bank=50] [--reserve-funding=100000000] [--last-reserve-funding=20000]
 *       [--customer-funding=500000] [--poor-customers=3]
 * </pre>
 *
 * The last bank's reserve is small ({@code last-reserve-funding}): some of its interbank payments are refused
 * for insufficient reserve. The first {@code poor-customers} customers of every bank get {@value #POOR_FUNDING}
 * centavos: their payments soon fail for insufficient funds. Writes carry idempotency keys, so a retried
 * request cannot fund twice.
 */
public final class Seed {

    /** A poor customer's funding, in centavos. */
    static final long POOR_FUNDING = 1_500;

    /** Attempts per request: a just-started payment-api may refuse the first ones with 5xx. */
    private static final int ATTEMPTS_MAX = 5;

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration RETRY_PAUSE = Duration.ofSeconds(1);
    private static final int BANKS_MAX = 100;
    private static final int CUSTOMERS_PER_BANK_MAX = 1_000_000;

    record Plan(
            List<BankId> banks,
            int customersPerBank,
            long reserveFunding,
            long lastReserveFunding,
            long customerFunding,
            int poorCustomers) {

        Plan {
            banks = List.copyOf(banks);
            Check.that(!banks.isEmpty() && banks.size() <= BANKS_MAX, "banks 1..%d: %d", BANKS_MAX, banks.size());
            Check.that(new HashSet<>(banks).size() == banks.size(), "distinct banks: %s", banks);
            Check.that(
                    customersPerBank >= 1 && customersPerBank <= CUSTOMERS_PER_BANK_MAX,
                    "customers per bank 1..%d: %d",
                    CUSTOMERS_PER_BANK_MAX,
                    customersPerBank);
            Check.that(reserveFunding > 0 && lastReserveFunding > 0 && customerFunding > 0, "positive fundings");
            Check.that(poorCustomers >= 0, "poor customers >= 0: %d", poorCustomers);
        }

        long reserveFunding(BankId bank) {
            return bank.equals(banks.getLast()) ? lastReserveFunding : reserveFunding;
        }

        long customerFunding(int customer) {
            return customer <= poorCustomers ? POOR_FUNDING : customerFunding;
        }
    }

    private final URI api;
    private final LocalTls tls;
    private final HttpClient operator;
    private final JsonMapper json = JsonMapper.builder().build();

    Seed(URI api, LocalTls tls) {
        this.api = LocalTls.requireHttps(api);
        this.tls = tls;
        this.operator = LocalTls.client(tls.operator(), null);
    }

    public static void main(String[] args) throws Exception {
        SeedOptions options = SeedOptions.parse(args);
        List<String> lines = new Seed(options.api(), options.tls()).seed(options.plan());
        Files.write(options.out(), lines);
        Plan plan = options.plan();
        System.out.printf(
                "seeded %d customers at %d banks -> %s%n",
                plan.banks().size() * plan.customersPerBank(), plan.banks().size(), options.out());
    }

    /** Seeds every bank in parallel (one thread each); returns the accounts file's lines. */
    List<String> seed(Plan plan) throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add("# kind\tid\tfunded_centavos (written by local-runtime seed)");
        try (ExecutorService banks = Executors.newFixedThreadPool(plan.banks().size())) {
            List<Future<List<String>>> seeded = new ArrayList<>(plan.banks().size());
            for (BankId bank : plan.banks()) {
                seeded.add(banks.submit(() -> seedBank(plan, bank)));
            }
            for (Future<List<String>> bank : seeded) {
                lines.addAll(bank.get());
            }
        }
        return lines;
    }

    /**
     * One bank: the operator registers it and funds its reserve; the bank opens and funds its customers and registers
     * each one's PIX key ({@link DemoKeys}).
     */
    private List<String> seedBank(Plan plan, BankId bank) throws IOException, InterruptedException {
        int ispb = bank.ispb();
        List<String> lines = new ArrayList<>(1 + plan.customersPerBank());
        post(operator, "/banks", Map.of("ispb", ispb, "name", "Demo Bank " + bank), null);
        post(
                operator,
                "/banks/" + ispb + "/reserve-fundings",
                Map.of("amountCentavos", plan.reserveFunding(bank)),
                "seed-reserve-" + ispb);
        lines.add("bank\t" + ispb + "\t" + plan.reserveFunding(bank));
        try (HttpClient own = LocalTls.client(tls.bank(bank), null)) {
            for (int customer = 1; customer <= plan.customersPerBank(); customer++) {
                JsonNode opened = post(own, "/accounts", Map.of("ispb", ispb, "accountNumber", customer), null);
                Id128 account = Id128.parse(opened.path("accountId").asString());
                long funding = plan.customerFunding(customer);
                post(
                        own,
                        "/accounts/" + account + "/fundings",
                        Map.of("amountCentavos", funding),
                        "seed-customer-" + account);
                // The bank registers its customer's PIX key, as a bank does when its customer asks.
                post(
                        own,
                        "/directory/keys",
                        Map.of(
                                "keyType", "EMAIL",
                                "key", DemoKeys.keyOf(account),
                                "accountId", account.toString(),
                                "holderName", "Cliente " + customer + " do Banco " + bank,
                                "holderTaxId", DemoKeys.cpfOf(account)),
                        "seed-key-" + account);
                lines.add("customer\t" + account + "\t" + funding);
            }
        }
        return lines;
    }

    /**
     * POSTs as {@code caller}'s client until 200/201, at most {@link #ATTEMPTS_MAX} times; a 4xx is final. Returns
     * the answer's body.
     */
    private JsonNode post(HttpClient caller, String path, Map<String, Object> body, String idempotencyKey)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(api.resolve(path))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body)));
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        String last = "no answer";
        for (int attempt = 1; attempt <= ATTEMPTS_MAX; attempt++) {
            try {
                HttpResponse<String> answer = caller.send(request.build(), HttpResponse.BodyHandlers.ofString());
                if (answer.statusCode() == 200 || answer.statusCode() == 201) {
                    return json.readTree(answer.body());
                }
                last = answer.statusCode() + " " + answer.body();
                if (answer.statusCode() >= 400 && answer.statusCode() < 500) {
                    break;
                }
            } catch (IOException e) {
                last = e.toString();
            }
            if (attempt < ATTEMPTS_MAX) {
                Thread.sleep(RETRY_PAUSE);
            }
        }
        throw new IOException("POST " + path + " failed: " + last);
    }
}
