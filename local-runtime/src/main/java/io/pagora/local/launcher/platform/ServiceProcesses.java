package io.pagora.local.launcher.platform;

import io.pagora.kernel.tls.PemTls;
import io.pagora.local.launcher.AotCache;
import io.pagora.local.launcher.Console;
import io.pagora.local.launcher.Layout;
import io.pagora.local.launcher.Settings;
import io.pagora.local.launcher.Supervisor;
import io.pagora.local.launcher.Tools;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * The platform's service processes (every instance of the three services, and the bank simulator): their
 * command lines, their start, their health, and what the launcher asks of them while they run.
 */
public final class ServiceProcesses {

    private static final Pattern STATUS = Pattern.compile("\"status\":\"([A-Z_]+)\"");
    private static final Pattern LEADER =
            Pattern.compile("(?m)^pagora_reconciliation_leader(?:\\{[^}]*\\})? ([0-9.eE+-]+)$");

    private final Platform platform;

    ServiceProcesses(Platform platform) {
        this.platform = platform;
    }

    /** Every instance of every service not running yet, then each waited for until healthy; then the bank simulator. */
    public void startServices(String backend) {
        for (String service : Platform.SERVICES) {
            for (Topology.Instance instance : instancesOf(service)) {
                if (platform.supervisor.alive(instance.name())) {
                    Console.say("%s already running", instance.name());
                    continue;
                }
                startInstance(service, instance, backend);
            }
        }
        for (String service : Platform.SERVICES) {
            for (Topology.Instance instance : instancesOf(service)) {
                waitForHealth(service, instance);
            }
        }
        startBankSimulator();
    }

    public List<Topology.Instance> instancesOf(String service) {
        return platform.runningTopology().instances(service, Platform.SERVICE_PORT.get(service));
    }

    private void startInstance(String service, Topology.Instance instance, String backend) {
        Supervisor.requireFreePort(instance.name(), instance.port());
        Map<String, String> environment = new LinkedHashMap<>();
        if (Platform.TLS_SERVICES.contains(service)) {
            if (platform.runningTransport().equals("tls")) {
                environment.put("PAGORA_TLS_DIRECTORY", platform.layout.tls().toString());
            } else {
                environment.put("SPRING_PROFILES_ACTIVE", "plain-http");
            }
        }
        List<String> jvmOptions = new ArrayList<>(
                List.of(platform.settings.text("SERVICE_JVM_OPTS").trim().split("\\s+")));
        jvmOptions.addAll(List.of("-XX:+ExitOnOutOfMemoryError", "--enable-native-access=ALL-UNNAMED"));
        List<String> arguments = serviceArguments(service, instance, backend);
        List<String> command = new ArrayList<>();
        command.add(Tools.java());
        command.addAll(jvmOptions);
        command.addAll(
                platform.settings.flag("AOT_CACHE")
                        ? new AotCache(platform.layout, platform.tools)
                                .jarArguments(service, jvmOptions, arguments, environment)
                        : List.of("-jar", platform.tools.jar(service).toString()));
        command.addAll(arguments);
        Console.say("starting %s on %s:%d", instance.name(), Layout.HOST, instance.port());
        platform.supervisor.launch(instance.name(), command, environment, true);
    }

    /** Participants answer (RECEIVING_BANKS=participants) over mutual TLS: the bank simulator acts for the seeded banks. */
    public boolean participantsAnswer() {
        return platform.settings.text("RECEIVING_BANKS").equals("participants")
                && platform.runningTransport().equals("tls");
    }

    /**
     * The bank simulator process (module bank-simulator): acts for the seeded banks with their own certificates over
     * docs/participants.md's protocol, answering with BANK_ACCEPT_RATE / BANK_NO_ANSWER_RATE (the rest refused) after
     * BANK_ANSWER_LATENCY, returning RETURN_RATE of the payments settled to them (a devolução), and reporting
     * MED_REPORT_RATE of their customers' settled payments as fraud (docs/med.md; then also analysing the reports on
     * payments to their customers, accepting MED_REPORT_ACCEPT_RATE); its control port
     * switches a bank up, slow or down (chaos bank-down).
     */
    void startBankSimulator() {
        if (!participantsAnswer() || platform.supervisor.alive(Platform.BANK_SIMULATOR)) {
            return;
        }
        double accept = platform.settings.share("BANK_ACCEPT_RATE");
        double refuse = Math.max(0, 1.0 - accept - platform.settings.share("BANK_NO_ANSWER_RATE"));
        List<Long> ispbs = Settings.seededIspbs(platform.settings.integer("BANKS"));
        platform.certs().ensure(ispbs);
        Supervisor.requireFreePort(Platform.BANK_SIMULATOR, Platform.SIMULATOR_CONTROL_PORT);
        List<String> command = new ArrayList<>(List.of(
                Tools.java(),
                "-Xms64m",
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-jar",
                platform.tools.jar(Platform.BANK_SIMULATOR).toString(),
                "--switch=" + platform.serviceUrls("payment-api"),
                "--tls=" + platform.layout.tls(),
                "--banks="
                        + String.join(
                                ",",
                                ispbs.stream()
                                        .map(ispb -> "%08d".formatted(ispb))
                                        .toList()),
                "--accept=" + accept,
                "--refuse=" + refuse,
                "--latency-ms=" + millisOf(platform.settings.text("BANK_ANSWER_LATENCY")),
                "--return-rate=" + platform.settings.share("RETURN_RATE"),
                "--report-rate=" + platform.settings.share("MED_REPORT_RATE"),
                "--report-accept=" + platform.settings.share("MED_REPORT_ACCEPT_RATE"),
                "--control-port=" + Platform.SIMULATOR_CONTROL_PORT));
        Console.say(
                "starting the bank simulator for banks %s (accept %.2f, refuse %.2f, the rest unanswered), control on %s:%d",
                ispbs, accept, refuse, Layout.HOST, Platform.SIMULATOR_CONTROL_PORT);
        platform.supervisor.launch(Platform.BANK_SIMULATOR, command, Map.of(), true);
        platform.supervisor.waitForPort(Platform.BANK_SIMULATOR, Platform.SIMULATOR_CONTROL_PORT, 60);
    }

    /** A third of the answer window, at least 1 s, at most half of it (payment-api refuses more). */
    static long leaseTimeoutMillis(String answerWindow) {
        long windowMillis = millisOf(answerWindow);
        return Math.min(windowMillis / 2, Math.max(1000, windowMillis / 3));
    }

    /** A latency as the platform.settings write it ({@code 2ms}, {@code 3s}) in milliseconds. */
    public static long millisOf(String text) {
        Matcher matcher = Pattern.compile("([0-9]+)(ms|s)").matcher(text.trim());
        if (!matcher.matches()) {
            throw Console.fail("a latency is a whole number of ms or s (2ms, 3s), not %s", text);
        }
        long value = Long.parseLong(matcher.group(1));
        return matcher.group(2).equals("ms") ? value : value * 1000;
    }

    /**
     * Tells the bank simulator to return {@code share} of the payments settled from now on to these banks (a
     * scripted scenario stops them, so that none of its payments is returned under it; RETURN_RATE is the share to
     * restore). Nothing when no simulator answers for the banks.
     */
    public void bankSimulatorReturns(List<Long> ispbs, double share) {
        if (!participantsAnswer()) {
            return;
        }
        for (long bank : ispbs) {
            bankSimulator(Long.toString(bank), "returns?share=" + share);
        }
    }

    /** Tells the bank simulator to switch one bank (or "all") up, slow or down, or (returns?share=S) its returns. */
    public void bankSimulator(String ispb, String mode) {
        List<Long> ispbs = ispb.equals("all")
                ? Settings.seededIspbs(platform.settings.integer("BANKS"))
                : List.of(Long.parseLong(ispb));
        for (long bank : ispbs) {
            try {
                HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
                        .send(
                                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://%s:%d/banks/%08d/%s"
                                                .formatted(Layout.HOST, Platform.SIMULATOR_CONTROL_PORT, bank, mode)))
                                        .timeout(java.time.Duration.ofSeconds(5))
                                        .POST(java.net.http.HttpRequest.BodyPublishers.noBody())
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    throw Console.fail("the bank simulator refused %s for %08d: %s", mode, bank, response.body());
                }
            } catch (IOException e) {
                throw Console.fail(
                        "the bank simulator is not answering on %d: %s",
                        Platform.SIMULATOR_CONTROL_PORT, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw Console.fail("interrupted");
            }
        }
    }

    public List<String> serviceArguments(String service, Topology.Instance instance, String backend) {
        Topology topology = platform.runningTopology();
        List<String> arguments = new ArrayList<>(List.of(
                "--spring.datasource.url=" + Postgres.JDBC_URL,
                "--spring.datasource.username=" + Postgres.USER,
                "--spring.datasource.password=" + Postgres.PASSWORD,
                "--spring.kafka.bootstrap-servers=" + topology.kafkaBootstrap(),
                "--pagora.topics.replication-factor=" + topology.replicationFactor(),
                "--pagora.topics.min-insync-replicas=" + topology.minInsyncReplicas(),
                "--pagora.ledger.backend=" + backend,
                "--pagora.ledger.tigerbeetle.addresses=" + topology.tigerBeetleAddresses(),
                "--pagora.ledger.tigerbeetle.cluster-id=0",
                "--server.port=" + instance.port(),
                "--server.address=" + Layout.HOST));
        if (Platform.STATIC_MEMBERS.contains(service)) {
            // Static group membership (KIP-345): a service killed -9 and started again rejoins its consumer groups
            // under the same name and gets its partitions back at once, instead of waiting for the dead member's
            // session timeout (15 s) while its backlog grows. Each instance has its own name (clearing-service-local,
            // clearing-service-2-local), as a deployment names each (a StatefulSet's pod name); Spring Kafka suffixes
            // it per listener thread.
            arguments.add("--spring.kafka.consumer.properties.group.instance.id=" + instance.name() + "-local");
        }
        if (Platform.TLS_SERVICES.contains(service)) {
            arguments.add("--pagora.web.connections-per-participant-max="
                    + platform.settings.integer("PARTICIPANT_CONNECTIONS_MAX"));
        }
        switch (service) {
            case "payment-api" ->
                arguments.addAll(List.of(
                        "--pagora.payments.status-base-url=" + platform.serviceUrl("reporting-service", ""),
                        "--pagora.payments.participant-limits.burst=" + platform.settings.number("PARTICIPANT_BURST"),
                        "--pagora.payments.participant-limits.refill-per-second="
                                + platform.settings.number("PARTICIPANT_REFILL_PER_SECOND"),
                        "--pagora.payments.participant-limits.in-flight-max="
                                + platform.settings.number("PARTICIPANT_IN_FLIGHT_MAX"),
                        "--pagora.directory.participant-burst="
                                + platform.settings.number("DIRECTORY_PARTICIPANT_BURST"),
                        "--pagora.directory.participant-refill-per-minute="
                                + platform.settings.number("DIRECTORY_PARTICIPANT_REFILL_PER_MINUTE"),
                        // Pulled, unacknowledged messages go to another stream well inside the time to answer (a third
                        // of it, at least 1 s, never above half of it as payment-api requires): redelivered after it,
                        // an
                        // instruction only expires.
                        "--pagora.participants.answer-window=" + platform.settings.text("PENDING_TIMEOUT"),
                        "--pagora.participants.lease-timeout="
                                + leaseTimeoutMillis(platform.settings.text("PENDING_TIMEOUT")) + "ms"));
            case "reporting-service" ->
                arguments.addAll(List.of(
                        "--pagora.reporting.reconciliation.enabled=" + platform.settings.flag("RECONCILIATION"),
                        "--pagora.reporting.reconciliation.final-within="
                                + platform.settings.text("RECONCILIATION_FINAL_WITHIN")));
            case "clearing-service" ->
                arguments.addAll(List.of(
                        "--pagora.clearing.receiving-bank=" + (participantsAnswer() ? "participants" : "simulated"),
                        "--pagora.clearing.pending-timeout=" + platform.settings.text("PENDING_TIMEOUT"),
                        "--pagora.clearing.bank.accept-rate=" + platform.settings.share("BANK_ACCEPT_RATE"),
                        "--pagora.clearing.bank.no-answer-rate=" + platform.settings.share("BANK_NO_ANSWER_RATE"),
                        "--pagora.clearing.bank.answer-latency=" + platform.settings.text("BANK_ANSWER_LATENCY")));
            default -> throw new IllegalArgumentException("no such service: " + service);
        }
        return arguments;
    }

    /** UP when /actuator/health answers 200 (Spring answers 503 for DOWN), else the status it reports, else "". */
    String health(String service, Topology.Instance instance) {
        try {
            HttpResponse<String> response =
                    get(anonymous(service), platform.instanceUrl(service, instance.port(), "/actuator/health"));
            if (response.statusCode() == 200) {
                return "UP";
            }
            Matcher matcher = STATUS.matcher(response.body());
            return matcher.find() ? matcher.group(1) : "";
        } catch (IOException | RuntimeException unanswered) {
            return "";
        }
    }

    void waitForHealth(String service, Topology.Instance instance) {
        String name = instance.name();
        int waitSeconds = platform.settings.integer("HEALTH_WAIT_SECONDS");
        long deadline = System.nanoTime() + waitSeconds * 1_000_000_000L;
        String status = health(service, instance);
        while (!status.equals("UP")) {
            if (!platform.supervisor.alive(name)) {
                System.err.println(Supervisor.tail(platform.layout.log(name), 40));
                throw Console.fail("%s exited during startup (log: %s)", name, platform.layout.log(name));
            }
            if (System.nanoTime() > deadline) {
                throw Console.fail(
                        "%s not UP within %ds (status '%s', log: %s)",
                        name, waitSeconds, status.isEmpty() ? "no answer" : status, platform.layout.log(name));
            }
            Supervisor.sleep(2000);
            status = health(service, instance);
        }
        Console.say("%s is UP (%s)", name, platform.instanceUrl(service, instance.port(), "/actuator/health"));
    }

    /** The settled count reporting-service's /stats shows the operator, or 0 when it does not answer. */
    public long settledCount() {
        try {
            SSLContext operator = PemTls.mutual(
                    platform.layout.participants().resolve("operator.crt"),
                    platform.layout.participants().resolve("operator.key"),
                    platform.layout.tls().resolve("ca.crt"));
            HttpResponse<String> response =
                    get(Optional.of(operator), platform.serviceUrl("reporting-service", "/stats"));
            Matcher matcher = Pattern.compile("\"SETTLED\":(\\d+)").matcher(response.body());
            return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
        } catch (IOException | RuntimeException unanswered) {
            return 0;
        }
    }

    /** Whether this reporting instance runs the online reconciliation now: its {@code pagora_reconciliation_leader} is 1. */
    public boolean holdsReconciliationLease(Topology.Instance instance) {
        try {
            SSLContext monitor = PemTls.mutual(
                    platform.layout.participants().resolve("monitor.crt"),
                    platform.layout.participants().resolve("monitor.key"),
                    platform.layout.tls().resolve("ca.crt"));
            HttpResponse<String> response = get(
                    Optional.of(monitor),
                    platform.instanceUrl("reporting-service", instance.port(), "/actuator/prometheus"));
            return reconciliationLeader(response.body());
        } catch (IOException | RuntimeException unanswered) {
            return false;
        }
    }

    public static boolean reconciliationLeader(String metrics) {
        Matcher matcher = LEADER.matcher(metrics);
        return matcher.find() && Double.parseDouble(matcher.group(1)) == 1.0;
    }

    private Optional<SSLContext> anonymous(String service) {
        return platform.usesTls(service)
                ? Optional.of(PemTls.anonymous(platform.layout.tls().resolve("ca.crt")))
                : Optional.empty();
    }

    private static HttpResponse<String> get(Optional<SSLContext> tls, String url) throws IOException {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3));
        tls.ifPresent(builder::sslContext);
        try (HttpClient client = builder.build()) {
            return client.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(3))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
