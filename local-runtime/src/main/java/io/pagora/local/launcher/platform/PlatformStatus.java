package io.pagora.local.launcher.platform;

import io.pagora.local.launcher.Layout;
import io.pagora.local.launcher.Supervisor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** What the launcher prints about the platform: its endpoints, each component's state, the logs. */
public final class PlatformStatus {

    private final Platform platform;

    PlatformStatus(Platform platform) {
        this.platform = platform;
    }

    /** name=pid of every component whose CPU the bench and the report measure (each with its descendants). */
    public String componentPids() {
        List<String> parts = new ArrayList<>();
        Topology topology = platform.runningTopology();
        List<String> names = new ArrayList<>();
        Platform.SERVICES.forEach(
                service -> platform.services.instancesOf(service).forEach(instance -> names.add(instance.name())));
        topology.kafka().forEach(node -> names.add(node.name()));
        topology.tigerBeetle().forEach(replica -> names.add(replica.name()));
        names.add(Platform.BANK_SIMULATOR);
        for (String name : names) {
            if (platform.supervisor.alive(name)) {
                parts.add(name + "=" + platform.supervisor.pid(name).orElseThrow());
            }
        }
        parts.add("postgresql=" + platform.postgres.rootPid());
        return String.join(",", parts);
    }

    public void printEndpoints() {
        System.out.printf(
                "  payment-api        %s  (POST /banks, /accounts, /payments ...)  log %s%n",
                platform.serviceUrls("payment-api"), platform.layout.log("payment-api"));
        System.out.printf(
                "  clearing-service   %s   (actuator only)                           log %s%n",
                platform.serviceUrls("clearing-service"), platform.layout.log("clearing-service"));
        System.out.printf(
                "  reporting-service  %s  (GET /payments/{id}, /stats ...)          log %s%n",
                platform.serviceUrls("reporting-service"), platform.layout.log("reporting-service"));
        System.out.printf(
                "  Kafka              %s                                                 log %s%n",
                platform.kafkaBootstrap(), platform.layout.log("kafka"));
        System.out.printf(
                "  PostgreSQL         %s:%d  database %s, user %s                    log %s%n",
                Layout.HOST, Postgres.PORT, Postgres.DATABASE, Postgres.USER, platform.layout.log("platform.postgres"));
        if (Postgres.read(platform.layout.state("ledger-backend")).orElse("").equals("tigerbeetle")) {
            System.out.printf(
                    "  TigerBeetle        %s                                                 log %s%n",
                    platform.tigerBeetleAddresses(), platform.layout.log("tigerbeetle"));
        }
        if (platform.supervisor.alive("prometheus")) {
            System.out.printf(
                    "  Prometheus         http://%s:%d  (every service's /actuator/prometheus)    log %s%n",
                    Layout.HOST, Platform.PROMETHEUS_PORT, platform.layout.log("prometheus"));
        }
        if (platform.runningTransport().equals("tls")) {
            System.out.printf(
                    "  identity           mutual TLS: CA %s, client certificates in %s (docs/security.md)%n",
                    platform.layout.tls().resolve("ca.crt"), platform.layout.participants());
        } else {
            System.out.println(
                    "  identity           PLAIN HTTP (plain-http profile): the Pagora-Participant header names"
                            + " the caller, unproven");
        }
    }

    public void status() {
        System.out.println("ledger backend: "
                + Postgres.read(platform.layout.state("ledger-backend")).orElse("-"));
        if (platform.anyRunning()) {
            System.out.println("transport: " + platform.runningTransport() + " (payment-api and reporting-service)");
        }
        System.out.printf(
                "  %-18s %s%n",
                "platform.postgres",
                platform.postgres.running()
                        ? "running (%s) on %s:%d   log %s"
                                .formatted(
                                        platform.postgres.mode(),
                                        Layout.HOST,
                                        Postgres.PORT,
                                        platform.layout.log("platform.postgres"))
                        : "stopped");
        Topology topology = platform.runningTopology();
        List<String> names = new ArrayList<>();
        topology.kafka().forEach(node -> names.add(node.name()));
        topology.tigerBeetle().forEach(replica -> names.add(replica.name()));
        names.add("prometheus");
        for (String name : names) {
            System.out.printf(
                    "  %-20s %s%n",
                    name,
                    platform.supervisor.alive(name)
                            ? "running (pid %d)   log %s"
                                    .formatted(platform.supervisor.pid(name).orElseThrow(), platform.layout.log(name))
                            : "stopped");
        }
        for (String service : Platform.SERVICES) {
            for (Topology.Instance instance : platform.services.instancesOf(service)) {
                String name = instance.name();
                if (!platform.supervisor.alive(name)) {
                    System.out.printf("  %-20s stopped%n", name);
                    continue;
                }
                String health = Optional.of(platform.services.health(service, instance))
                        .filter(s -> !s.isEmpty())
                        .orElse("?");
                System.out.printf(
                        "  %-20s running (pid %d), health %s   log %s%n",
                        name, platform.supervisor.pid(name).orElseThrow(), health, platform.layout.log(name));
            }
        }
    }

    public void logs(List<String> names) {
        List<String> shown = names.isEmpty()
                ? Stream.of(
                                List.of("platform.postgres"),
                                Topology.SCALED.names(Platform.SERVICES),
                                List.of("prometheus", "k6"))
                        .flatMap(List::stream)
                        .toList()
                : names;
        for (String name : shown) {
            Path log = platform.layout.log(name);
            if (Files.exists(log)) {
                System.out.println("==> " + log + " <==");
                System.out.println(Supervisor.tail(log, platform.settings.integer("LOG_LINES")));
            }
        }
    }
}
