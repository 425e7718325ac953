package io.pagora.local.launcher.platform;

import io.pagora.kernel.tls.PemTls;
import io.pagora.local.launcher.AotCache;
import io.pagora.local.launcher.Certs;
import io.pagora.local.launcher.Console;
import io.pagora.local.launcher.Exec;
import io.pagora.local.launcher.Layout;
import io.pagora.local.launcher.Settings;
import io.pagora.local.launcher.Supervisor;
import io.pagora.local.launcher.Tools;
import io.pagora.local.launcher.commands.Load;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;

/**
 * The platform on one machine: PostgreSQL, Kafka (KRaft), optionally TigerBeetle, the three services and
 * Prometheus, started in that order ({@link #up}) and stopped in reverse ({@link #down}).
 */
public final class Platform {

    static final List<String> SERVICES = List.of("payment-api", "clearing-service", "reporting-service");
    static final String BANK_SIMULATOR = "bank-simulator";
    static final int SIMULATOR_CONTROL_PORT = 8089;
    /** The services with a participant-facing API: mutual TLS. clearing-service has none and stays plain HTTP. */
    static final List<String> TLS_SERVICES = List.of("payment-api", "reporting-service");
    /** The services whose Kafka consumers belong to consumer groups (payment-api reads without one). */
    static final List<String> STATIC_MEMBERS = List.of("clearing-service", "reporting-service");
    static final Map<String, Integer> SERVICE_PORT = Map.of("payment-api", 8080, "clearing-service", 8081,
            "reporting-service", 8082);
    static final int KAFKA_PORT = 9092;
    static final int KAFKA_CONTROLLER_PORT = 9093;
    static final int TIGERBEETLE_PORT = 3000;
    static final int PROMETHEUS_PORT = 9090;
    /** The TigerBeetle server release this project is tested with (docs/testing.md: server and client). */
    public static final String TIGERBEETLE_VERSION = "0.16.78";
    private static final int READY_SECONDS = 120;
    private static final Pattern STATUS = Pattern.compile("\"status\":\"([A-Z_]+)\"");
    private static final Pattern LEADER = Pattern.compile("(?m)^pagora_reconciliation_leader(?:\\{[^}]*\\})? ([0-9.eE+-]+)$");

    public final Layout layout;
    public final Supervisor supervisor;
    public final Tools tools;
    public final Settings settings;
    public final Postgres postgres;

    public Platform(Layout layout, Settings settings) {
        this.layout = layout;
        this.settings = settings;
        this.supervisor = new Supervisor(layout);
        this.tools = new Tools(layout);
        this.postgres = new Postgres(layout, supervisor, tools, settings);
    }

    /** The same platform run with other settings (bench's and chaos's own). */
    public Platform with(Settings other) {
        return new Platform(layout, other);
    }

    // ------------------------------------------------------------------------------------- transport

    String requestedTransport() {
        return settings.flag("PAGORA_PLAIN_HTTP") ? "plain-http" : "tls";
    }

    public String runningTransport() {
        return Postgres.read(layout.state("transport")).orElse("tls");
    }

    /** demo, bench, chaos and walkthrough prove the platform as it is meant to run: never without mutual TLS. */
    public void refusePlainHttp(String command) {
        if (!requestedTransport().equals("tls")) {
            throw Console.fail("%s runs over mutual TLS only: unset PAGORA_PLAIN_HTTP (plain HTTP is for local"
                    + " experiments with 'up --plain-http')", command);
        }
    }

    boolean usesTls(String service) {
        return TLS_SERVICES.contains(service) && runningTransport().equals("tls");
    }

    /** The first instance's URL: the launcher's own calls (seeding, the verifier, health of the platform). */
    public String serviceUrl(String service, String path) {
        return instanceUrl(service, SERVICE_PORT.get(service), path);
    }

    /** Every instance's URL, comma-separated: what k6, the bench and the bank simulator spread their calls over. */
    public String serviceUrls(String service) {
        return String.join(",", runningTopology().instances(service, SERVICE_PORT.get(service)).stream()
                .map(instance -> instanceUrl(service, instance.port(), "")).toList());
    }

    private String instanceUrl(String service, int port, String path) {
        return (usesTls(service) ? "https" : "http") + "://" + Layout.HOST + ":" + port + path;
    }

    // ------------------------------------------------------------------------------------- topology

    /** The topology {@code up} starts: PAGORA_SCALE=1 (the commands' {@code --scale}) or one of everything. */
    public Topology requestedTopology() {
        return settings.flag("PAGORA_SCALE") ? Topology.SCALED : Topology.SINGLE;
    }

    /** The topology the running platform was started with (one of everything when none runs). */
    public Topology runningTopology() {
        return Postgres.read(layout.state("topology")).map(Topology::named).orElseGet(this::requestedTopology);
    }

    public String kafkaBootstrap() {
        return runningTopology().kafkaBootstrap();
    }

    public String tigerBeetleAddresses() {
        return runningTopology().tigerBeetleAddresses();
    }

    public String ledgerBackend() {
        return settings.optional("TIGERBEETLE_BIN").isPresent() ? "tigerbeetle" : "postgresql";
    }

    public String runningLedger() {
        return Postgres.read(layout.state("ledger-backend")).orElseThrow(() -> Console.fail("the platform is not running"));
    }

    // ------------------------------------------------------------------------------------------- up

    public void up() {
        String backend = ledgerBackend();
        String transport = requestedTransport();
        if (Files.exists(layout.state("transport")) && !runningTransport().equals(transport) && anyRunning()) {
            throw Console.fail("the running platform uses %s: run 'infra/local/pagora down' first", runningTransport());
        }
        Postgres.write(layout.state("transport"), transport);
        if (transport.equals("tls")) {
            certs().ensure(List.of());
        } else {
            Console.banner("PLAIN HTTP (profile plain-http): payment-api and reporting-service run WITHOUT TLS and"
                    + " believe the\n  Pagora-Participant header of anyone who can reach 127.0.0.1 -- local experiments"
                    + " only, never for a measurement");
        }
        if (backend.equals("tigerbeetle")) {
            Console.banner("LEDGER: TigerBeetle (%s) on %s".formatted(settings.text("TIGERBEETLE_BIN"),
                    requestedTopology().tigerBeetleAddresses()));
        } else {
            Console.banner("LEDGER: PostgreSQL (schema 'ledger' in database %s) -- set TIGERBEETLE_BIN for TigerBeetle"
                    .formatted(Postgres.DATABASE));
        }
        Optional<String> running = Postgres.read(layout.state("ledger-backend"));
        if (running.isPresent() && !running.get().equals(backend) && anyRunning()) {
            throw Console.fail("the running platform uses the %s ledger: run 'infra/local/pagora down' first", running.get());
        }
        Postgres.write(layout.state("ledger-backend"), backend);
        Topology topology = requestedTopology();
        if (Files.exists(layout.state("topology")) && !runningTopology().equals(topology) && anyRunning()) {
            throw Console.fail("the running platform is %s: run 'infra/local/pagora down' first", runningTopology().name());
        }
        requireDataOf(topology);
        Postgres.write(layout.state("topology"), topology.name());
        if (topology.scaled()) {
            Console.banner(("SCALED: %d Kafka nodes (topics replicated %d times, min.insync.replicas %d), %d TigerBeetle"
                    + " replicas, %d instances of each service (docs/scale-out.md)").formatted(topology.kafkaNodes(),
                    topology.replicationFactor(), topology.minInsyncReplicas(), topology.tigerBeetleReplicas(),
                    topology.serviceInstances()));
        }
        postgres.start();
        startKafka();
        if (backend.equals("tigerbeetle")) {
            startTigerBeetle();
        }
        startServices(backend);
        startPrometheus();
        Console.say("platform is up (java: %s)", Tools.java());
        printEndpoints();
    }

    /**
     * The data under var/ belongs to the topology that wrote it: a single Kafka node's log is not a quorum member's, a
     * one-replica TigerBeetle file is not a cluster's. Starting the other topology on it is refused, with the way out.
     */
    private void requireDataOf(Topology topology) {
        Path marker = layout.var().resolve("data-topology");
        boolean anyData = Files.exists(layout.var().resolve("kafka").resolve("logs").resolve("meta.properties"))
                || Files.exists(layout.var().resolve("tigerbeetle").resolve("0_0.tigerbeetle"));
        String written = Postgres.read(marker).orElse(anyData ? Topology.SINGLE.name() : topology.name());
        if (!written.equals(topology.name())) {
            throw Console.fail("the data under %s is the %s platform's: start it as it was (%s), or remove the data"
                    + " ('infra/local/pagora clean') first", layout.var(), written,
                    written.equals("scaled") ? "with --scale" : "without --scale");
        }
        Postgres.write(marker, topology.name());
    }

    public Certs certs() {
        return new Certs(layout.tls());
    }

    /**
     * Every Kafka node of the topology, launched together (a quorum elects its leader only once a majority runs),
     * then each waited for. Nodes of a quorum share a cluster id, chosen when their data is new.
     */
    public void startKafka() {
        Topology topology = runningTopology();
        String clusterId = topology.kafkaNodes() == 1 ? "" : kafkaClusterId();
        Map<String, Long> launched = new LinkedHashMap<>();
        for (Topology.Instance node : topology.kafka()) {
            if (supervisor.alive(node.name())) {
                Console.say("%s already running", node.name());
                continue;
            }
            launched.put(node.name(), startKafkaNode(topology, node, clusterId));
        }
        launched.forEach((name, logOffset) -> supervisor.waitForLogLine(name, logOffset, "LocalKafka: ready", READY_SECONDS));
    }

    /** Starts one Kafka node (also chaos's restart of a killed one); returns its log's offset before the start. */
    long startKafkaNode(Topology topology, Topology.Instance node, String clusterId) {
        Supervisor.requireFreePort(node.name(), node.port());
        Supervisor.requireFreePort(node.name() + "-controller", node.port() + 1);
        Path data = layout.var().resolve(node.name());
        Console.say("starting %s (KRaft node %d of %d, local-runtime LocalKafka) on %s:%d, data %s", node.name(),
                node.index(), topology.kafkaNodes(), Layout.HOST, node.port(), data);
        List<String> arguments = new ArrayList<>(List.of("--data-dir=" + data, "--port=" + node.port(),
                "--controller-port=" + (node.port() + 1)));
        if (topology.kafkaNodes() > 1) {
            arguments.addAll(List.of("--node-id=" + node.index(), "--voters=" + topology.kafkaVoters(),
                    "--cluster-id=" + clusterId, "--replication-factor=" + topology.replicationFactor()));
        }
        // A node of three gets less heap: three brokers and seven other JVMs share the machine (docs/scale-out.md).
        String heap = topology.kafkaNodes() == 1 ? "-Xmx1g" : "-Xmx512m";
        return supervisor.launch(node.name(), tools.command(List.of("-Xms256m", heap), "kafka", arguments), Map.of(), true)
                .logOffset();
    }

    /** The quorum's cluster id: chosen once per fresh data, kept beside it so a restarted node formats alike. */
    String kafkaClusterId() {
        Path file = layout.var().resolve("kafka-cluster-id");
        return Postgres.read(file).orElseGet(() -> {
            String id = org.apache.kafka.common.Uuid.randomUuid().toString();
            Postgres.write(file, id);
            return id;
        });
    }

    /**
     * Every TigerBeetle replica of the topology: each its own process and data file ({@code 0_<replica>.tigerbeetle}),
     * each given every replica's address, launched together (a cluster serves once a quorum of them runs).
     */
    public void startTigerBeetle() {
        Path binary = Path.of(settings.text("TIGERBEETLE_BIN"));
        if (!Files.isExecutable(binary)) {
            throw Console.fail("TIGERBEETLE_BIN=%s is not an executable", binary);
        }
        String version = Exec.capture(List.of(binary.toString(), "version")).output().lines().findFirst().orElse("");
        checkTigerBeetleVersion(version);
        Topology topology = runningTopology();
        List<Topology.Instance> started = new ArrayList<>();
        for (Topology.Instance replica : topology.tigerBeetle()) {
            if (supervisor.alive(replica.name())) {
                Console.say("%s already running", replica.name());
                continue;
            }
            startTigerBeetleReplica(topology, replica, version);
            started.add(replica);
        }
        for (Topology.Instance replica : started) {
            supervisor.waitForPort(replica.name(), replica.port(), 60);
        }
    }

    /** Formats the replica's data file when it is new, then starts it (also chaos's restart of a killed replica). */
    void startTigerBeetleReplica(Topology topology, Topology.Instance replica, String version) {
        Path binary = Path.of(settings.text("TIGERBEETLE_BIN"));
        Supervisor.requireFreePort(replica.name(), replica.port());
        Path directory = layout.var().resolve("tigerbeetle");
        int replicaIndex = replica.index() - 1;
        Path data = directory.resolve("0_" + replicaIndex + ".tigerbeetle");
        createDirectories(directory);
        // Production mode (Direct IO, full-size batches), as docker-compose.yml runs it. Only where the file
        // system refuses Direct IO (tmpfs, some overlay file systems) does it fall back to --development, loudly.
        boolean development = Files.exists(directory.resolve("development"));
        if (!Files.exists(data)) {
            Console.say("formatting %s (%s, replica %d of %d, %s)", data, version, replicaIndex,
                    topology.tigerBeetleReplicas(), development ? "--development" : "production mode");
            List<String> format = new ArrayList<>(List.of(binary.toString(), "format", "--cluster=0",
                    "--replica=" + replicaIndex, "--replica-count=" + topology.tigerBeetleReplicas(), data.toString()));
            if (development) {
                format.add(format.size() - 1, "--development");
            }
            boolean formatted = Exec.capture(format, Map.of(), layout.log(replica.name())).status() == 0;
            if (!formatted && development) {
                throw Console.fail("tigerbeetle format --development failed (log: %s)", layout.log(replica.name()));
            }
            if (!formatted) {
                Supervisor.delete(data);
                Console.warn("TigerBeetle could not format in production mode (Direct IO unavailable under %s?):"
                        + " using --development", layout.var());
                development = true;
                Postgres.write(directory.resolve("development"), "");
                format.add(format.size() - 1, "--development");
                if (Exec.capture(format, Map.of(), layout.log(replica.name())).status() != 0) {
                    throw Console.fail("tigerbeetle format failed (log: %s)", layout.log(replica.name()));
                }
            }
        }
        List<String> start = new ArrayList<>(List.of(binary.toString(), "start",
                "--addresses=" + topology.tigerBeetleAddresses(), "--cache-grid=" + settings.text("TB_CACHE_GRID")));
        if (development) {
            // --limit-request=1MiB keeps full 8189-transfer batches possible in development mode.
            start.addAll(List.of("--development", "--experimental", "--limit-request=1MiB"));
        }
        start.add(data.toString());
        Console.say("starting %s (replica %d of %d) on %s:%d, data %s, cache grid %s %s", replica.name(), replicaIndex,
                topology.tigerBeetleReplicas(), Layout.HOST, replica.port(), data, settings.text("TB_CACHE_GRID"),
                development ? "--development" : "(production mode)");
        supervisor.launch(replica.name(), start, Map.of(), true);
    }

    /**
     * Older servers are refused (0.16.30's panics under the contract suite); a newer one is allowed, loudly, since
     * servers up to 0.17.0 accept the 0.16.30 client.
     */
    public static void checkTigerBeetleVersion(String versionLine) {
        String got = versionLine.substring(versionLine.lastIndexOf(' ') + 1);
        int metadata = got.indexOf('+');
        got = metadata < 0 ? got : got.substring(0, metadata);
        if (!got.matches("\\d+\\.\\d+\\.\\d+")) {
            throw Console.fail("TIGERBEETLE_BIN does not say its version ('%s')", versionLine);
        }
        Comparator<String> byVersion = Comparator.comparing(Platform::versionKey);
        if (byVersion.compare(got, TIGERBEETLE_VERSION) < 0) {
            throw Console.fail("TIGERBEETLE_BIN is TigerBeetle %s, older than the pinned %s (docs/testing.md: server and"
                    + " client)", got, TIGERBEETLE_VERSION);
        }
        if (!got.equals(TIGERBEETLE_VERSION)) {
            Console.warn("TIGERBEETLE_BIN is TigerBeetle %s, not the %s this project is tested with", got, TIGERBEETLE_VERSION);
        }
    }

    private static long versionKey(String version) {
        String[] parts = version.split("\\.");
        return Long.parseLong(parts[0]) * 1_000_000_000L + Long.parseLong(parts[1]) * 1_000_000L + Long.parseLong(parts[2]);
    }

    /**
     * Optional: Prometheus scraping the three services every 5 s (infra/prometheus/prometheus.yml; with --scale
     * prometheus-scale.yml, every instance). Skipped,
     * saying so, without a binary, with PAGORA_NO_PROMETHEUS=1, or when port 9090 is taken.
     */
    void startPrometheus() {
        if (supervisor.alive("prometheus")) {
            Console.say("Prometheus already running (http://%s:%d)", Layout.HOST, PROMETHEUS_PORT);
            return;
        }
        if (settings.flag("PAGORA_NO_PROMETHEUS")) {
            Console.say("Prometheus: skipped (PAGORA_NO_PROMETHEUS=1)");
            return;
        }
        Path binary = settings.optional("PROMETHEUS_BIN").map(Path::of).orElseGet(() -> Exec.find("prometheus"));
        if (binary == null) {
            Console.say("Prometheus: no 'prometheus' on the PATH (nor PROMETHEUS_BIN): metrics are not collected;"
                    + " each service still serves them at /actuator/prometheus (docs/operations.md)");
            return;
        }
        if (!Files.isExecutable(binary)) {
            throw Console.fail("PROMETHEUS_BIN=%s is not an executable", binary);
        }
        if (Supervisor.portOpen(PROMETHEUS_PORT)) {
            Console.warn("Prometheus: port %d is already in use by another process: not starting ours", PROMETHEUS_PORT);
            return;
        }
        Path data = layout.var().resolve("prometheus");
        createDirectories(data);
        Path config = layout.root().resolve(runningTopology().scaled() ? "infra/prometheus/prometheus-scale.yml"
                : "infra/prometheus/prometheus.yml");
        Console.say("starting Prometheus (%s) on %s:%d, scraping every instance of the three services every 5 s (the"
                + " two TLS ones as the monitor; %s), data %s", binary, Layout.HOST, PROMETHEUS_PORT, config.getFileName(),
                data);
        if (!runningTransport().equals("tls")) {
            Console.warn("plain-http: Prometheus scrapes payment-api and reporting-service over mutual TLS only;"
                    + " their targets stay down");
        }
        supervisor.launch("prometheus", List.of(binary.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + data, "--storage.tsdb.retention.time=2d",
                "--web.listen-address=" + Layout.HOST + ":" + PROMETHEUS_PORT), Map.of(), true);
        supervisor.waitForPort("prometheus", PROMETHEUS_PORT, 60);
    }

    /** Every instance of every service not running yet, then each waited for until healthy; then the bank simulator. */
    public void startServices(String backend) {
        for (String service : SERVICES) {
            for (Topology.Instance instance : instancesOf(service)) {
                if (supervisor.alive(instance.name())) {
                    Console.say("%s already running", instance.name());
                    continue;
                }
                startInstance(service, instance, backend);
            }
        }
        for (String service : SERVICES) {
            for (Topology.Instance instance : instancesOf(service)) {
                waitForHealth(service, instance);
            }
        }
        startBankSimulator();
    }

    public List<Topology.Instance> instancesOf(String service) {
        return runningTopology().instances(service, SERVICE_PORT.get(service));
    }

    private void startInstance(String service, Topology.Instance instance, String backend) {
        Supervisor.requireFreePort(instance.name(), instance.port());
        Map<String, String> environment = new LinkedHashMap<>();
        if (TLS_SERVICES.contains(service)) {
            if (runningTransport().equals("tls")) {
                environment.put("PAGORA_TLS_DIRECTORY", layout.tls().toString());
            } else {
                environment.put("SPRING_PROFILES_ACTIVE", "plain-http");
            }
        }
        List<String> jvmOptions = new ArrayList<>(List.of(settings.text("SERVICE_JVM_OPTS").trim().split("\\s+")));
        jvmOptions.addAll(List.of("-XX:+ExitOnOutOfMemoryError", "--enable-native-access=ALL-UNNAMED"));
        List<String> arguments = serviceArguments(service, instance, backend);
        List<String> command = new ArrayList<>();
        command.add(Tools.java());
        command.addAll(jvmOptions);
        command.addAll(settings.flag("AOT_CACHE") ? new AotCache(layout, tools).jarArguments(service, jvmOptions,
                arguments, environment) : List.of("-jar", tools.jar(service).toString()));
        command.addAll(arguments);
        Console.say("starting %s on %s:%d", instance.name(), Layout.HOST, instance.port());
        supervisor.launch(instance.name(), command, environment, true);
    }

    /** Participants answer (RECEIVING_BANKS=participants) over mutual TLS: the bank simulator acts for the seeded banks. */
    public boolean participantsAnswer() {
        return settings.text("RECEIVING_BANKS").equals("participants") && runningTransport().equals("tls");
    }

    /**
     * The bank simulator process (module bank-simulator): acts for the seeded banks with their own certificates over
     * docs/participants.md's protocol, answering with BANK_ACCEPT_RATE / BANK_NO_ANSWER_RATE (the rest refused) after
     * BANK_ANSWER_LATENCY, and returning RETURN_RATE of the payments settled to them (a devolução); its control port
     * switches a bank up, slow or down (chaos bank-down).
     */
    void startBankSimulator() {
        if (!participantsAnswer() || supervisor.alive(BANK_SIMULATOR)) {
            return;
        }
        double accept = settings.share("BANK_ACCEPT_RATE");
        double refuse = Math.max(0, 1.0 - accept - settings.share("BANK_NO_ANSWER_RATE"));
        List<Long> ispbs = Load.seededIspbs(settings.integer("BANKS"));
        certs().ensure(ispbs);
        Supervisor.requireFreePort(BANK_SIMULATOR, SIMULATOR_CONTROL_PORT);
        List<String> command = new ArrayList<>(List.of(Tools.java(), "-Xms64m", "-Xmx256m", "-XX:+UseSerialGC", "-jar",
                tools.jar(BANK_SIMULATOR).toString(), "--switch=" + serviceUrls("payment-api"), "--tls=" + layout.tls(),
                "--banks=" + String.join(",", ispbs.stream().map(ispb -> "%08d".formatted(ispb)).toList()),
                "--accept=" + accept, "--refuse=" + refuse,
                "--latency-ms=" + millisOf(settings.text("BANK_ANSWER_LATENCY")),
                "--return-rate=" + settings.share("RETURN_RATE"),
                "--control-port=" + SIMULATOR_CONTROL_PORT));
        Console.say("starting the bank simulator for banks %s (accept %.2f, refuse %.2f, the rest unanswered), control on %s:%d",
                ispbs, accept, refuse, Layout.HOST, SIMULATOR_CONTROL_PORT);
        supervisor.launch(BANK_SIMULATOR, command, Map.of(), true);
        supervisor.waitForPort(BANK_SIMULATOR, SIMULATOR_CONTROL_PORT, 60);
    }

    /** A third of the answer window, at least 1 s, at most half of it (payment-api refuses more). */
    static long leaseTimeoutMillis(String answerWindow) {
        long windowMillis = millisOf(answerWindow);
        return Math.min(windowMillis / 2, Math.max(1000, windowMillis / 3));
    }

    /** A latency as the settings write it ({@code 2ms}, {@code 3s}) in milliseconds. */
    public static long millisOf(String text) {
        Matcher matcher = Pattern.compile("([0-9]+)(ms|s)").matcher(text.trim());
        if (!matcher.matches()) {
            throw Console.fail("a latency is a whole number of ms or s (2ms, 3s), not %s", text);
        }
        long value = Long.parseLong(matcher.group(1));
        return matcher.group(2).equals("ms") ? value : value * 1000;
    }

    /** Tells the bank simulator to switch one bank (or "all") up, slow or down. */
    public void bankSimulator(String ispb, String mode) {
        List<Long> ispbs = ispb.equals("all") ? Load.seededIspbs(settings.integer("BANKS")) : List.of(Long.parseLong(ispb));
        for (long bank : ispbs) {
            try {
                HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
                        .newBuilder(java.net.URI.create("http://%s:%d/banks/%08d/%s".formatted(Layout.HOST,
                                SIMULATOR_CONTROL_PORT, bank, mode))).timeout(java.time.Duration.ofSeconds(5))
                        .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    throw Console.fail("the bank simulator refused %s for %08d: %s", mode, bank, response.body());
                }
            } catch (IOException e) {
                throw Console.fail("the bank simulator is not answering on %d: %s", SIMULATOR_CONTROL_PORT, e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw Console.fail("interrupted");
            }
        }
    }

    public List<String> serviceArguments(String service, Topology.Instance instance, String backend) {
        Topology topology = runningTopology();
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
        if (STATIC_MEMBERS.contains(service)) {
            // Static group membership (KIP-345): a service killed -9 and started again rejoins its consumer groups
            // under the same name and gets its partitions back at once, instead of waiting for the dead member's
            // session timeout (15 s) while its backlog grows. Each instance has its own name (clearing-service-local,
            // clearing-service-2-local), as a deployment names each (a StatefulSet's pod name); Spring Kafka suffixes
            // it per listener thread.
            arguments.add("--spring.kafka.consumer.properties.group.instance.id=" + instance.name() + "-local");
        }
        if (TLS_SERVICES.contains(service)) {
            arguments.add("--pagora.web.connections-per-participant-max=" + settings.integer("PARTICIPANT_CONNECTIONS_MAX"));
        }
        switch (service) {
            case "payment-api" -> arguments.addAll(List.of(
                    "--pagora.payments.status-base-url=" + serviceUrl("reporting-service", ""),
                    "--pagora.payments.participant-limits.burst=" + settings.number("PARTICIPANT_BURST"),
                    "--pagora.payments.participant-limits.refill-per-second=" + settings.number("PARTICIPANT_REFILL_PER_SECOND"),
                    "--pagora.payments.participant-limits.in-flight-max=" + settings.number("PARTICIPANT_IN_FLIGHT_MAX"),
                    // Pulled, unacknowledged messages go to another stream well inside the time to answer (a third
                    // of it, at least 1 s, never above half of it as payment-api requires): redelivered after it, an
                    // instruction only expires.
                    "--pagora.participants.answer-window=" + settings.text("PENDING_TIMEOUT"),
                    "--pagora.participants.lease-timeout=" + leaseTimeoutMillis(settings.text("PENDING_TIMEOUT")) + "ms"));
            case "reporting-service" -> arguments.addAll(List.of(
                    "--pagora.reporting.reconciliation.enabled=" + settings.flag("RECONCILIATION"),
                    "--pagora.reporting.reconciliation.final-within=" + settings.text("RECONCILIATION_FINAL_WITHIN")));
            case "clearing-service" -> arguments.addAll(List.of(
                    "--pagora.clearing.receiving-bank=" + (participantsAnswer() ? "participants" : "simulated"),
                    "--pagora.clearing.pending-timeout=" + settings.text("PENDING_TIMEOUT"),
                    "--pagora.clearing.bank.accept-rate=" + settings.share("BANK_ACCEPT_RATE"),
                    "--pagora.clearing.bank.no-answer-rate=" + settings.share("BANK_NO_ANSWER_RATE"),
                    "--pagora.clearing.bank.answer-latency=" + settings.text("BANK_ANSWER_LATENCY")));
            default -> throw new IllegalArgumentException("no such service: " + service);
        }
        return arguments;
    }

    // --------------------------------------------------------------------------------------- health

    /** UP when /actuator/health answers 200 (Spring answers 503 for DOWN), else the status it reports, else "". */
    String health(String service, Topology.Instance instance) {
        try {
            HttpResponse<String> response = get(anonymous(service), instanceUrl(service, instance.port(), "/actuator/health"));
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
        int waitSeconds = settings.integer("HEALTH_WAIT_SECONDS");
        long deadline = System.nanoTime() + waitSeconds * 1_000_000_000L;
        String status = health(service, instance);
        while (!status.equals("UP")) {
            if (!supervisor.alive(name)) {
                System.err.println(Supervisor.tail(layout.log(name), 40));
                throw Console.fail("%s exited during startup (log: %s)", name, layout.log(name));
            }
            if (System.nanoTime() > deadline) {
                throw Console.fail("%s not UP within %ds (status '%s', log: %s)", name, waitSeconds,
                        status.isEmpty() ? "no answer" : status, layout.log(name));
            }
            Supervisor.sleep(2000);
            status = health(service, instance);
        }
        Console.say("%s is UP (%s)", name, instanceUrl(service, instance.port(), "/actuator/health"));
    }

    /** The settled count reporting-service's /stats shows the operator, or 0 when it does not answer. */
    public long settledCount() {
        try {
            SSLContext operator = PemTls.mutual(layout.participants().resolve("operator.crt"),
                    layout.participants().resolve("operator.key"), layout.tls().resolve("ca.crt"));
            HttpResponse<String> response = get(Optional.of(operator), serviceUrl("reporting-service", "/stats"));
            Matcher matcher = Pattern.compile("\"SETTLED\":(\\d+)").matcher(response.body());
            return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
        } catch (IOException | RuntimeException unanswered) {
            return 0;
        }
    }

    /** Whether this reporting instance runs the online reconciliation now: its {@code pagora_reconciliation_leader} is 1. */
    public boolean holdsReconciliationLease(Topology.Instance instance) {
        try {
            SSLContext monitor = PemTls.mutual(layout.participants().resolve("monitor.crt"),
                    layout.participants().resolve("monitor.key"), layout.tls().resolve("ca.crt"));
            HttpResponse<String> response = get(Optional.of(monitor),
                    instanceUrl("reporting-service", instance.port(), "/actuator/prometheus"));
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
        return usesTls(service) ? Optional.of(PemTls.anonymous(layout.tls().resolve("ca.crt"))) : Optional.empty();
    }

    private static HttpResponse<String> get(Optional<SSLContext> tls, String url) throws IOException {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3));
        tls.ifPresent(builder::sslContext);
        try (HttpClient client = builder.build()) {
            return client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(3)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    // ----------------------------------------------------------------------------------------- down

    boolean anyRunning() {
        return Stream.concat(Stream.of("postgres", "prometheus", "k6", BANK_SIMULATOR), Topology.SCALED.names(SERVICES).stream())
                .anyMatch(supervisor::alive) || postgres.running();
    }

    public void down() {
        supervisor.stop("k6", 10);
        supervisor.stop(BANK_SIMULATOR, 10);
        supervisor.stop("prometheus", 20);
        // Whatever topology runs, every name the scaled one may use is stopped (a name not running is skipped).
        Topology all = Topology.SCALED;
        stopTogether(SERVICES.stream().flatMap(service -> all.instances(service, 0).stream()).map(Topology.Instance::name)
                .toList(), 40);
        // A quorum's nodes together: one stopped after the others would wait for a controller majority that is gone.
        stopTogether(all.kafka().stream().map(Topology.Instance::name).toList(), 60);
        stopTogether(all.tigerBeetle().stream().map(Topology.Instance::name).toList(), 30);
        postgres.stop();
        Supervisor.delete(layout.state("ledger-backend"));
        Supervisor.delete(layout.state("transport"));
        Supervisor.delete(layout.state("topology"));
        Console.say("stopped");
    }

    private void stopTogether(List<String> names, int seconds) {
        List<Thread> stoppers = names.stream().filter(supervisor::alive)
                .map(name -> Thread.ofPlatform().start(() -> supervisor.stop(name, seconds))).toList();
        for (Thread stopper : stoppers) {
            try {
                stopper.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops a running platform and removes its data: demo, bench, chaos and walkthrough start from fresh data. */
    public void removeData(String who) {
        if (anyRunning()) {
            Console.say("stopping the running platform first: %s starts from fresh data", who);
            down();
        }
        List<Path> data = new ArrayList<>(List.of(layout.var().resolve("postgres"), layout.var().resolve("postgres-embedded"),
                layout.var().resolve("tigerbeetle"), layout.var().resolve("prometheus"), layout.var().resolve("kafka-cluster-id"),
                layout.var().resolve("data-topology"),
                layout.demo(), postgres.fallbackHome()));
        Topology.SCALED.kafka().forEach(node -> data.add(layout.var().resolve(node.name())));
        data.forEach(Platform::deleteTree);
    }

    /** Everything the platform's runs wrote except certificates, logs and k6: a 5-minute bench leaves tens of GB. */
    public void clean() {
        removeData("clean");
        for (Path written : List.of(layout.bench(), layout.chaos(), layout.run(), layout.var().resolve("aot"))) {
            deleteTree(written);
        }
        Console.say("removed the platform's data, the bench's and the chaos runs' files, the AOT caches (kept: %s, %s, %s)", layout.tls(),
                layout.log(), layout.bin());
    }

    public static void deleteTree(Path root) {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw Console.fail("could not remove %s: %s", root, e.getMessage());
        }
    }

    public static void createDirectories(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw Console.fail("could not create %s: %s", directory, e.getMessage());
        }
    }

    /** name=pid of every component whose CPU the bench and the report measure (each with its descendants). */
    public String componentPids() {
        List<String> parts = new ArrayList<>();
        Topology topology = runningTopology();
        List<String> names = new ArrayList<>();
        SERVICES.forEach(service -> instancesOf(service).forEach(instance -> names.add(instance.name())));
        topology.kafka().forEach(node -> names.add(node.name()));
        topology.tigerBeetle().forEach(replica -> names.add(replica.name()));
        names.add(BANK_SIMULATOR);
        for (String name : names) {
            if (supervisor.alive(name)) {
                parts.add(name + "=" + supervisor.pid(name).orElseThrow());
            }
        }
        parts.add("postgresql=" + postgres.rootPid());
        return String.join(",", parts);
    }

    // --------------------------------------------------------------------------------------- status

    public void printEndpoints() {
        System.out.printf("  payment-api        %s  (POST /banks, /accounts, /payments ...)  log %s%n",
                serviceUrls("payment-api"), layout.log("payment-api"));
        System.out.printf("  clearing-service   %s   (actuator only)                           log %s%n",
                serviceUrls("clearing-service"), layout.log("clearing-service"));
        System.out.printf("  reporting-service  %s  (GET /payments/{id}, /stats ...)          log %s%n",
                serviceUrls("reporting-service"), layout.log("reporting-service"));
        System.out.printf("  Kafka              %s                                                 log %s%n",
                kafkaBootstrap(), layout.log("kafka"));
        System.out.printf("  PostgreSQL         %s:%d  database %s, user %s                    log %s%n", Layout.HOST,
                Postgres.PORT, Postgres.DATABASE, Postgres.USER, layout.log("postgres"));
        if (Postgres.read(layout.state("ledger-backend")).orElse("").equals("tigerbeetle")) {
            System.out.printf("  TigerBeetle        %s                                                 log %s%n",
                    tigerBeetleAddresses(), layout.log("tigerbeetle"));
        }
        if (supervisor.alive("prometheus")) {
            System.out.printf("  Prometheus         http://%s:%d  (every service's /actuator/prometheus)    log %s%n",
                    Layout.HOST, PROMETHEUS_PORT, layout.log("prometheus"));
        }
        if (runningTransport().equals("tls")) {
            System.out.printf("  identity           mutual TLS: CA %s, client certificates in %s (docs/security.md)%n",
                    layout.tls().resolve("ca.crt"), layout.participants());
        } else {
            System.out.println("  identity           PLAIN HTTP (plain-http profile): the Pagora-Participant header names"
                    + " the caller, unproven");
        }
    }

    public void status() {
        System.out.println("ledger backend: " + Postgres.read(layout.state("ledger-backend")).orElse("-"));
        if (anyRunning()) {
            System.out.println("transport: " + runningTransport() + " (payment-api and reporting-service)");
        }
        System.out.printf("  %-18s %s%n", "postgres", postgres.running()
                ? "running (%s) on %s:%d   log %s".formatted(postgres.mode(), Layout.HOST, Postgres.PORT, layout.log("postgres"))
                : "stopped");
        Topology topology = runningTopology();
        List<String> names = new ArrayList<>();
        topology.kafka().forEach(node -> names.add(node.name()));
        topology.tigerBeetle().forEach(replica -> names.add(replica.name()));
        names.add("prometheus");
        for (String name : names) {
            System.out.printf("  %-20s %s%n", name, supervisor.alive(name) ? "running (pid %d)   log %s".formatted(
                    supervisor.pid(name).orElseThrow(), layout.log(name)) : "stopped");
        }
        for (String service : SERVICES) {
            for (Topology.Instance instance : instancesOf(service)) {
                String name = instance.name();
                if (!supervisor.alive(name)) {
                    System.out.printf("  %-20s stopped%n", name);
                    continue;
                }
                String health = Optional.of(health(service, instance)).filter(s -> !s.isEmpty()).orElse("?");
                System.out.printf("  %-20s running (pid %d), health %s   log %s%n", name, supervisor.pid(name).orElseThrow(),
                        health, layout.log(name));
            }
        }
    }

    public void logs(List<String> names) {
        List<String> shown = names.isEmpty()
                ? Stream.of(List.of("postgres"), Topology.SCALED.names(SERVICES), List.of("prometheus", "k6"))
                        .flatMap(List::stream).toList()
                : names;
        for (String name : shown) {
            Path log = layout.log(name);
            if (Files.exists(log)) {
                System.out.println("==> " + log + " <==");
                System.out.println(Supervisor.tail(log, settings.integer("LOG_LINES")));
            }
        }
    }
}
