package io.pagora.local.launcher.commands;

import io.pagora.kernel.tls.PemTls;
import io.pagora.local.launcher.Certs;
import io.pagora.local.launcher.Console;
import io.pagora.local.launcher.Settings;
import io.pagora.local.launcher.Supervisor;
import io.pagora.local.launcher.platform.Platform;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * The seeded participants and the payments between them: seeding through payment-api (local-runtime's seed, the
 * one seeding path: the demo, bench, verify, chaos and k6 all read the accounts file it writes), and the demo's
 * degraded sender for a machine without k6.
 */
public final class Load {

    private static final int DEGRADED_SENDERS = 8;
    private static final Duration DEGRADED_TIMEOUT = Duration.ofSeconds(15);
    private static final Pattern PAYMENT_ID = Pattern.compile("\"paymentId\":\"([^\"]*)\"");

    private Load() {}

    /** The ISPB an account id names: the low 32 bits of its high half (ChartOfAccounts), hex digits 8..16. */
    static long ispbOf(String accountId) {
        if (!accountId.matches("[0-9a-fA-F]{32}")) {
            throw Console.fail("an account id is 32 hex digits, not '%s'", accountId);
        }
        return Long.parseLong(accountId.substring(8, 16), 16);
    }

    static void seed(Platform platform) {
        Settings settings = platform.settings;
        List<Long> ispbs = Settings.seededIspbs(settings.integer("BANKS"));
        String list = String.join(
                ",", ispbs.stream().map(ispb -> "%08d".formatted(ispb)).toList());
        Console.say(
                "seeding through payment-api: %d banks (%s) x %d customers (log %s)",
                ispbs.size(), list, settings.integer("CUSTOMERS_PER_BANK"), platform.layout.log("seed"));
        platform.certs().ensure(ispbs);
        Platform.createDirectories(platform.layout.demo());
        Path log = platform.layout.log("seed");
        int status = platform.tools.runLogged(
                List.of(),
                "seed",
                List.of(
                        "--out=" + platform.layout.accounts(),
                        "--api-url=" + platform.serviceUrl("payment-api", ""),
                        "--tls-dir=" + platform.layout.tls(),
                        "--ispbs=" + list,
                        "--customers-per-bank=" + settings.integer("CUSTOMERS_PER_BANK"),
                        "--reserve-funding=" + settings.number("RESERVE_FUNDING"),
                        "--last-reserve-funding=" + settings.number("LAST_RESERVE_FUNDING"),
                        "--customer-funding=" + settings.number("CUSTOMER_FUNDING"),
                        "--poor-customers=" + settings.integer("POOR_CUSTOMERS")),
                log);
        if (status != 0) {
            System.err.println(Supervisor.tail(log, 20));
            throw Console.fail("seeding failed (log: %s)", log);
        }
        Console.say("%s", Supervisor.tail(log, 1));
    }

    /** The seeded accounts of one kind (bank or customer), from the accounts file. */
    public static List<String> accounts(Path accountsFile, String kind) {
        try {
            return Files.readAllLines(accountsFile).stream()
                    .map(line -> line.split("\\s+"))
                    .filter(fields -> fields.length > 1 && fields[0].equals(kind))
                    .map(fields -> fields[1])
                    .toList();
        } catch (IOException e) {
            throw Console.fail("cannot read %s: %s", accountsFile, e.getMessage());
        }
    }

    /**
     * Without k6: payments between the seeded customers, {@value #DEGRADED_SENDERS} at a time, each sent by the
     * payer's bank, writing the answer lines k6/pagora.js writes (LOG_ANSWERS=1). No arrival-rate control and no
     * latency percentiles: the report's checks still judge every payment.
     */
    static void sendDegraded(Platform platform, int payments, Path answers) {
        List<String> customers = accounts(platform.layout.accounts(), "customer");
        if (customers.size() < 2) {
            throw Console.fail("fewer than two seeded customers in %s", platform.layout.accounts());
        }
        Map<Long, HttpClient> clients = new HashMap<>();
        for (String customer : customers) {
            clients.computeIfAbsent(ispbOf(customer), ispb -> client(platform, Certs.bankPrincipal(ispb)));
        }
        String url = platform.serviceUrl("payment-api", "/payments");
        String runId = Long.toString(System.currentTimeMillis() / 1000);
        ExecutorService senders = Executors.newFixedThreadPool(DEGRADED_SENDERS);
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(answers))) {
            for (int i = 0; i < payments; i++) {
                String key = "demo-" + runId + "-" + i;
                senders.submit(() -> {
                    String line = sendOne(customers, clients, url, key);
                    synchronized (out) {
                        out.println(line);
                    }
                });
            }
            senders.shutdown();
            if (!senders.awaitTermination(payments * DEGRADED_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                throw Console.fail("the degraded sender did not finish");
            }
        } catch (IOException e) {
            throw Console.fail("cannot write %s: %s", answers, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Console.fail("interrupted while sending");
        } finally {
            clients.values().forEach(HttpClient::close);
        }
    }

    private static String sendOne(List<String> customers, Map<Long, HttpClient> clients, String url, String key) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int payer = random.nextInt(customers.size());
        int payee = random.nextInt(customers.size() - 1);
        payee = payee >= payer ? payee + 1 : payee;
        String body = "{\"payerAccountId\":\"%s\",\"payeeAccountId\":\"%s\",\"amountCentavos\":%d}"
                .formatted(customers.get(payer), customers.get(payee), 100 + random.nextInt(4901));
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .timeout(DEGRADED_TIMEOUT)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            HttpResponse<String> response =
                    clients.get(ispbOf(customers.get(payer))).send(request, HttpResponse.BodyHandlers.ofString());
            int status = response.statusCode();
            Matcher id = PAYMENT_ID.matcher(response.body());
            if (status == 202 && id.find()) {
                return "ACCEPTED\t%s\t%s\t%d\tfirst".formatted(key, id.group(1), status);
            }
            return status >= 500
                    ? "UNANSWERED\t%s\t%d".formatted(key, status)
                    : "REFUSED\t%s\t%d\t".formatted(key, status);
        } catch (IOException unanswered) {
            return "UNANSWERED\t%s\t000".formatted(key);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "UNANSWERED\t%s\t000".formatted(key);
        }
    }

    private static HttpClient client(Platform platform, String principal) {
        Path participants = platform.layout.participants();
        SSLContext identity = PemTls.mutual(
                participants.resolve(principal + ".crt"),
                participants.resolve(principal + ".key"),
                platform.layout.tls().resolve("ca.crt"));
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .sslContext(identity)
                .build();
    }
}
