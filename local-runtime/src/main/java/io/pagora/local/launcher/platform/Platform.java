package io.pagora.local.launcher.platform;

import io.pagora.local.launcher.Certs;
import io.pagora.local.launcher.Console;
import io.pagora.local.launcher.Layout;
import io.pagora.local.launcher.Settings;
import io.pagora.local.launcher.Supervisor;
import io.pagora.local.launcher.Tools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

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

    static final Map<String, Integer> SERVICE_PORT =
            Map.of("payment-api", 8080, "clearing-service", 8081, "reporting-service", 8082);
    static final int KAFKA_PORT = 9092;
    static final int KAFKA_CONTROLLER_PORT = 9093;
    static final int TIGERBEETLE_PORT = 3000;
    static final int PROMETHEUS_PORT = 9090;
    /** The TigerBeetle server release this project is tested with (docs/testing.md: server and client). */
    public static final String TIGERBEETLE_VERSION = "0.16.78";

    public final Layout layout;
    public final Supervisor supervisor;
    public final Tools tools;
    public final Settings settings;
    public final Postgres postgres;
    public final KafkaNodes kafka;
    public final TigerBeetleReplicas tigerBeetle;
    public final Prometheus prometheus;
    public final ServiceProcesses services;
    public final PlatformStatus statusReport;

    public Platform(Layout layout, Settings settings) {
        this.layout = layout;
        this.settings = settings;
        this.supervisor = new Supervisor(layout);
        this.tools = new Tools(layout);
        this.postgres = new Postgres(layout, supervisor, tools, settings);
        this.kafka = new KafkaNodes(this);
        this.tigerBeetle = new TigerBeetleReplicas(this);
        this.prometheus = new Prometheus(this);
        this.services = new ServiceProcesses(this);
        this.statusReport = new PlatformStatus(this);
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
            throw Console.fail(
                    "%s runs over mutual TLS only: unset PAGORA_PLAIN_HTTP (plain HTTP is for local"
                            + " experiments with 'up --plain-http')",
                    command);
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
        return String.join(
                ",",
                runningTopology().instances(service, SERVICE_PORT.get(service)).stream()
                        .map(instance -> instanceUrl(service, instance.port(), ""))
                        .toList());
    }

    String instanceUrl(String service, int port, String path) {
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
        return Postgres.read(layout.state("ledger-backend"))
                .orElseThrow(() -> Console.fail("the platform is not running"));
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
            Console.banner("LEDGER: TigerBeetle (%s) on %s"
                    .formatted(
                            settings.text("TIGERBEETLE_BIN"),
                            requestedTopology().tigerBeetleAddresses()));
        } else {
            Console.banner("LEDGER: PostgreSQL (schema 'ledger' in database %s) -- set TIGERBEETLE_BIN for TigerBeetle"
                    .formatted(Postgres.DATABASE));
        }
        Optional<String> running = Postgres.read(layout.state("ledger-backend"));
        if (running.isPresent() && !running.get().equals(backend) && anyRunning()) {
            throw Console.fail(
                    "the running platform uses the %s ledger: run 'infra/local/pagora down' first", running.get());
        }
        Postgres.write(layout.state("ledger-backend"), backend);
        Topology topology = requestedTopology();
        if (Files.exists(layout.state("topology")) && !runningTopology().equals(topology) && anyRunning()) {
            throw Console.fail(
                    "the running platform is %s: run 'infra/local/pagora down' first",
                    runningTopology().name());
        }
        requireDataOf(topology);
        Postgres.write(layout.state("topology"), topology.name());
        if (topology.scaled()) {
            Console.banner(
                    ("SCALED: %d Kafka nodes (topics replicated %d times, min.insync.replicas %d), %d TigerBeetle"
                                    + " replicas, %d instances of each service (docs/scale-out.md)")
                            .formatted(
                                    topology.kafkaNodes(),
                                    topology.replicationFactor(),
                                    topology.minInsyncReplicas(),
                                    topology.tigerBeetleReplicas(),
                                    topology.serviceInstances()));
        }
        postgres.start();
        kafka.startKafka();
        if (backend.equals("tigerbeetle")) {
            tigerBeetle.startTigerBeetle();
        }
        services.startServices(backend);
        prometheus.startPrometheus();
        Console.say("platform is up (java: %s)", Tools.java());
        statusReport.printEndpoints();
    }

    /**
     * The data under var/ belongs to the topology that wrote it: a single Kafka node's log is not a quorum member's, a
     * one-replica TigerBeetle file is not a cluster's. Starting the other topology on it is refused, with the way out.
     */
    private void requireDataOf(Topology topology) {
        Path marker = layout.var().resolve("data-topology");
        boolean anyData =
                Files.exists(layout.var().resolve("kafka").resolve("logs").resolve("meta.properties"))
                        || Files.exists(layout.var().resolve("tigerbeetle").resolve("0_0.tigerbeetle"));
        String written = Postgres.read(marker).orElse(anyData ? Topology.SINGLE.name() : topology.name());
        if (!written.equals(topology.name())) {
            throw Console.fail(
                    "the data under %s is the %s platform's: start it as it was (%s), or remove the data"
                            + " ('infra/local/pagora clean') first",
                    layout.var(), written, written.equals("scaled") ? "with --scale" : "without --scale");
        }
        Postgres.write(marker, topology.name());
    }

    public Certs certs() {
        return new Certs(layout.tls());
    }

    // --------------------------------------------------------------------------------------- health

    // ----------------------------------------------------------------------------------------- down

    boolean anyRunning() {
        return Stream.concat(
                                Stream.of("postgres", "prometheus", "k6", BANK_SIMULATOR),
                                Topology.SCALED.names(SERVICES).stream())
                        .anyMatch(supervisor::alive)
                || postgres.running();
    }

    public void down() {
        supervisor.stop("k6", 10);
        supervisor.stop(BANK_SIMULATOR, 10);
        supervisor.stop("prometheus", 20);
        // Whatever topology runs, every name the scaled one may use is stopped (a name not running is skipped).
        Topology all = Topology.SCALED;
        stopTogether(
                SERVICES.stream()
                        .flatMap(service -> all.instances(service, 0).stream())
                        .map(Topology.Instance::name)
                        .toList(),
                40);
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
        List<Thread> stoppers = names.stream()
                .filter(supervisor::alive)
                .map(name -> Thread.ofPlatform().start(() -> supervisor.stop(name, seconds)))
                .toList();
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
        List<Path> data = new ArrayList<>(List.of(
                layout.var().resolve("postgres"),
                layout.var().resolve("postgres-embedded"),
                layout.var().resolve("tigerbeetle"),
                layout.var().resolve("prometheus"),
                layout.var().resolve("kafka-cluster-id"),
                layout.var().resolve("data-topology"),
                layout.demo(),
                postgres.fallbackHome()));
        Topology.SCALED.kafka().forEach(node -> data.add(layout.var().resolve(node.name())));
        data.forEach(Platform::deleteTree);
    }

    /** Everything the platform's runs wrote except certificates, logs and k6: a 5-minute bench leaves tens of GB. */
    public void clean() {
        removeData("clean");
        for (Path written : List.of(
                layout.bench(), layout.chaos(), layout.run(), layout.var().resolve("aot"))) {
            deleteTree(written);
        }
        Console.say(
                "removed the platform's data, the bench's and the chaos runs' files, the AOT caches (kept: %s, %s, %s)",
                layout.tls(), layout.log(), layout.bin());
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

    // --------------------------------------------------------------------------------------- status

}
