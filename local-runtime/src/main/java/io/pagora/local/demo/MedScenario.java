package io.pagora.local.demo;

import io.pagora.kernel.Check;
import io.pagora.local.tls.LocalTls;
import io.pagora.settlement.domain.BankId;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The demo's fraud report (docs/med.md), through the public API as the banks would make it. Its accounts and payments
 * join the demo's accounts file and answer log, so that the report's checks judge them with the rest: a victim pays a fraudster,
 * who moves the money on twice, across banks; the victim's bank files an infraction report; the trace must find all
 * of the money two hops away and hold it, so that the fraudsters' accounts have nothing to spend; the fraudster's bank
 * then accepts the report and the victim's bank asks for the refund: every hold pays its share back as a return, which
 * clearing settles through the victim's bank, and the victim has all of it back. Fails on any other answer, and when
 * nothing was traced.
 */
public final class MedScenario {

    static final long VICTIM_FUNDING = 10_000;
    static final long STOLEN = 5_000;
    static final long MOVED_ON = 3_000;
    static final long MOVED_AGAIN = 1_500;
    static final int PAYMENT_ATTEMPTS_MAX = 5;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL_PAUSE = Duration.ofMillis(200);

    private final MedScenarioOptions options;
    private final JsonMapper json = JsonMapper.builder().build();
    private final Map<BankId, HttpClient> clients = new HashMap<>();
    private final long deadlineNanos;

    MedScenario(MedScenarioOptions options) {
        this.options = options;
        this.deadlineNanos =
                System.nanoTime() + Duration.ofSeconds(options.timeoutSeconds()).toNanos();
    }

    public static void main(String[] args) throws Exception {
        MedScenarioOptions options = MedScenarioOptions.parse(args);
        Check.that(!options.banks().isEmpty(), "at least one bank");
        new MedScenario(options).run();
    }

    void run() throws IOException, InterruptedException {
        List<BankId> banks = options.banks();
        BankId victims = banks.getFirst();
        BankId fraudsters = banks.get(1 % banks.size());
        BankId mules = banks.get(2 % banks.size());
        String victim = open(victims, VICTIM_FUNDING);
        String f1 = open(fraudsters, 0);
        String f2 = open(mules, 0);
        String f3 = open(fraudsters, 0);
        String fraud = pay(victims, victim, f1, STOLEN);
        pay(fraudsters, f1, f2, MOVED_ON);
        pay(mules, f2, f3, MOVED_AGAIN);
        System.out.printf(
                "med: %s paid %s %d; it moved %d on to %s (bank %s), who moved %d on to %s%n",
                victim, f1, STOLEN, MOVED_ON, f2, mules, MOVED_AGAIN, f3);

        JsonNode report = send(
                victims,
                "POST",
                options.api().resolve("/infraction-reports"),
                Map.of("paymentId", fraud, "reason", "FRAUD", "details", "a fake seller (the demo's scam)"),
                "med-demo-" + fraud,
                201);
        String reportId = report.path("reportId").asString();
        int hops = 0;
        System.out.printf("med: report %s filed, analyse by %s; the trace:%n", reportId, report.path("analyseBy"));
        System.out.println("med:   hop  account                           ispb      traced    held");
        for (JsonNode node : report.path("trace")) {
            hops = Math.max(hops, node.path("hop").asInt());
            System.out.printf(
                    "med:   %3d  %s  %08d  %6d  %6d%n",
                    node.path("hop").asInt(),
                    node.path("accountId").asString(),
                    node.path("ispb").asInt(),
                    node.path("tracedCentavos").asLong(),
                    node.path("heldCentavos").asLong());
        }
        long held = report.path("heldCentavos").asLong();
        require(hops >= 2, "the trace reached %d hops; at least 2 expected", hops);
        require(held == STOLEN, "the trace held %d of %d", held, STOLEN);
        for (String account : List.of(f1, f2, f3)) {
            BankId bank = account.equals(f2) ? mules : fraudsters;
            require(available(bank, account) == 0, "%s can still spend held money", account);
        }
        System.out.printf(
                "med: PASS: %d of %d held across %d hops; the fraudsters' accounts have 0 to spend%n",
                held, STOLEN, hops);

        JsonNode accepted = send(
                fraudsters,
                "POST",
                options.api().resolve("/infraction-reports/" + reportId + "/analysis"),
                Map.of("decision", "ACCEPT"),
                null,
                200);
        require(accepted.path("status").asString().equals("ACCEPTED"), "the report is %s", accepted.path("status"));
        JsonNode refunded = send(
                victims,
                "POST",
                options.api().resolve("/infraction-reports/" + reportId + "/refund"),
                Map.of(),
                null,
                200);
        require(refunded.path("status").asString().equals("REFUNDED"), "the report is %s", refunded.path("status"));
        long paidBack = 0;
        for (JsonNode node : refunded.path("trace")) {
            if (node.path("refundPaymentId").isNull()
                    || node.path("refundPaymentId").isMissingNode()) {
                continue;
            }
            String refund = node.path("refundPaymentId").asString();
            require(
                    node.path("refundOutcome").asString().equals("RESERVED"),
                    "the refund of hop %d was %s",
                    node.path("hop").asInt(),
                    node.path("refundOutcome"));
            // A return, as the simulator's are: the checks judge it with its original, not as a payment a client sent.
            String status = awaitFinal(victims, refund).path("status").asString();
            require(status.equals("SETTLED"), "refund %s was %s", refund, status);
            paidBack += node.path("refundCentavos").asLong();
        }
        require(paidBack == STOLEN, "%d of %d refunded", paidBack, STOLEN);
        require(available(victims, victim) == VICTIM_FUNDING, "the victim has not all of it back");
        for (String account : List.of(f1, f2, f3)) {
            BankId bank = account.equals(f2) ? mules : fraudsters;
            require(available(bank, account) == 0, "%s kept some of the refunded money", account);
        }
        System.out.printf(
                "med: PASS: accepted by the fraudster's bank; %d of %d refunded through the returns flow, each return"
                        + " settled; the victim has %d again%n",
                paidBack, STOLEN, VICTIM_FUNDING);
    }

    private String open(BankId bank, long funding) throws IOException, InterruptedException {
        JsonNode opened = send(
                bank,
                "POST",
                options.api().resolve("/accounts"),
                Map.of("ispb", bank.ispb()),
                "med-demo-account-" + UUID.randomUUID(),
                201);
        String account = opened.path("accountId").asString();
        record(options.accounts(), "customer\t" + account + "\t" + funding);
        if (funding > 0) {
            send(
                    bank,
                    "POST",
                    options.api().resolve("/accounts/" + account + "/fundings"),
                    Map.of("amountCentavos", funding),
                    "med-demo-funding-" + account,
                    201);
        }
        return account;
    }

    /**
     * Pays until settled: a receiving bank may refuse a payment (the simulator refuses a share), then it is sent
     * again under a new key, at most {@value #PAYMENT_ATTEMPTS_MAX} times.
     */
    private String pay(BankId bank, String payer, String payee, long amount) throws IOException, InterruptedException {
        for (int attempt = 1; attempt <= PAYMENT_ATTEMPTS_MAX; attempt++) {
            String key = "med-demo-payment-" + UUID.randomUUID();
            JsonNode accepted = send(
                    bank,
                    "POST",
                    options.api().resolve("/payments"),
                    Map.of("payerAccountId", payer, "payeeAccountId", payee, "amountCentavos", amount),
                    key,
                    202);
            String payment = accepted.path("paymentId").asString();
            record(options.answers(), "ACCEPTED\t" + key + "\t" + payment + "\t202\tfirst");
            JsonNode state = awaitFinal(bank, payment);
            String status = state.path("status").asString();
            if (status.equals("SETTLED")) {
                return payment;
            }
            System.out.printf(
                    "med: payment %s was %s (%s: %s); sending it again%n",
                    payment,
                    status,
                    state.path("reason").asString(""),
                    state.path("detail").asString(""));
        }
        throw new IllegalStateException("no payment of " + amount + " from " + payer + " settled");
    }

    /** The read model's answer for a payment once it is final. */
    private JsonNode awaitFinal(BankId bank, String payment) throws IOException, InterruptedException {
        URI uri = options.reporting().resolve("/payments/" + payment);
        while (System.nanoTime() < deadlineNanos) {
            HttpResponse<String> answer = client(bank)
                    .send(
                            HttpRequest.newBuilder(uri)
                                    .timeout(REQUEST_TIMEOUT)
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() == 200) {
                JsonNode state = json.readTree(answer.body());
                if (!state.path("status").asString().equals("ACCEPTED")) {
                    return state;
                }
            }
            Thread.sleep(POLL_PAUSE);
        }
        throw new IllegalStateException("payment " + payment + " was not final in " + options.timeoutSeconds() + " s");
    }

    private long available(BankId bank, String account) throws IOException, InterruptedException {
        HttpResponse<String> answer = client(bank)
                .send(
                        HttpRequest.newBuilder(options.api().resolve("/accounts/" + account + "/balance"))
                                .timeout(REQUEST_TIMEOUT)
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        require(answer.statusCode() == 200, "balance of %s: %d %s", account, answer.statusCode(), answer.body());
        return json.readTree(answer.body()).path("availableCentavos").asLong();
    }

    private JsonNode send(BankId bank, String method, URI uri, Map<String, Object> body, String key, int expected)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body)));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        HttpResponse<String> answer = client(bank).send(request.build(), HttpResponse.BodyHandlers.ofString());
        require(
                answer.statusCode() == expected,
                "%s %s answered %d, not %d: %s",
                method,
                uri.getPath(),
                answer.statusCode(),
                expected,
                answer.body());
        return json.readTree(answer.body());
    }

    private HttpClient client(BankId bank) {
        return clients.computeIfAbsent(
                bank, own -> LocalTls.client(options.tls().bank(own), null));
    }

    /** One line more in a file the demo's checks read. */
    private static void record(Path file, String line) throws IOException {
        Files.writeString(file, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static void require(boolean condition, String format, Object... arguments) {
        if (!condition) {
            throw new IllegalStateException("med: FAIL: " + format.formatted(arguments));
        }
    }
}
