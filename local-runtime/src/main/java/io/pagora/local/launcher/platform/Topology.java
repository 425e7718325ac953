package io.pagora.local.launcher.platform;

import io.pagora.local.launcher.Console;
import io.pagora.local.launcher.Layout;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * How many of each the platform runs: one of everything ({@link #SINGLE}), or {@link #SCALED} ({@code --scale},
 * docs/scale-out.md): three Kafka nodes (each broker and controller, topics replicated 3 times with
 * {@code min.insync.replicas=2}), a three-replica TigerBeetle cluster and two instances of each service. Every
 * process has its own name (its pid file and log) and port; the first of each keeps the single platform's.
 */
public record Topology(String name, int kafkaNodes, int tigerBeetleReplicas, int serviceInstances) {

    static final Topology SINGLE = new Topology("single", 1, 1, 1);
    public static final Topology SCALED = new Topology("scaled", 3, 3, 2);
    /** A second instance listens 100 above the first (8080 -> 8180). */
    static final int INSTANCE_PORT_STEP = 100;
    /** Kafka node n listens on 9092 + 2(n-1), its controller one above. */
    static final int KAFKA_PORT_STEP = 2;

    public Topology {
        if (kafkaNodes < 1 || tigerBeetleReplicas < 1 || serviceInstances < 1 || serviceInstances > 9) {
            throw new IllegalArgumentException(
                    "a topology of at least one of everything, at most 9 instances: " + name);
        }
    }

    static Topology named(String name) {
        return switch (name) {
            case "single" -> SINGLE;
            case "scaled" -> SCALED;
            default -> throw Console.fail("unknown topology '%s' (single or scaled)", name);
        };
    }

    public boolean scaled() {
        return this != SINGLE;
    }

    /** One process: its supervisor name, its index among its kind (1-based) and its port. */
    public record Instance(String name, int index, int port) {}

    /** The instances of a service (or the bank simulator's control port): payment-api, payment-api-2, ... */
    List<Instance> instances(String service, int firstPort) {
        return IntStream.rangeClosed(1, serviceInstances)
                .mapToObj(index ->
                        new Instance(indexed(service, index), index, firstPort + (index - 1) * INSTANCE_PORT_STEP))
                .toList();
    }

    /** The Kafka nodes: kafka, kafka-2, kafka-3; {@link Instance#port()} is the broker's, the controller's is +1. */
    public List<Instance> kafka() {
        return IntStream.rangeClosed(1, kafkaNodes)
                .mapToObj(index -> new Instance(
                        indexed("kafka", index), index, Platform.KAFKA_PORT + (index - 1) * KAFKA_PORT_STEP))
                .toList();
    }

    /** The TigerBeetle replicas: tigerbeetle, tigerbeetle-2, ...; replica i (0-based) is instance i + 1. */
    public List<Instance> tigerBeetle() {
        return IntStream.rangeClosed(1, tigerBeetleReplicas)
                .mapToObj(index ->
                        new Instance(indexed("tigerbeetle", index), index, Platform.TIGERBEETLE_PORT + index - 1))
                .toList();
    }

    String kafkaBootstrap() {
        return kafka().stream().map(node -> Layout.HOST + ":" + node.port()).collect(Collectors.joining(","));
    }

    /** KRaft's static quorum: every node is a voter. */
    public String kafkaVoters() {
        return kafka().stream()
                .map(node -> node.index() + "@" + Layout.HOST + ":" + (node.port() + 1))
                .collect(Collectors.joining(","));
    }

    /** Every replica's address, in replica order: what each replica and every client is given. */
    String tigerBeetleAddresses() {
        return tigerBeetle().stream()
                .map(replica -> Layout.HOST + ":" + replica.port())
                .collect(Collectors.joining(","));
    }

    /** Topics replicated to every node, writes needing all but one (3 nodes: 2). */
    int replicationFactor() {
        return kafkaNodes;
    }

    int minInsyncReplicas() {
        return Math.max(1, kafkaNodes - 1);
    }

    /** Every process name this topology may run, for stopping and status. */
    List<String> names(List<String> services) {
        List<String> names = new ArrayList<>();
        kafka().forEach(node -> names.add(node.name()));
        tigerBeetle().forEach(replica -> names.add(replica.name()));
        for (String service : services) {
            instances(service, 0).forEach(instance -> names.add(instance.name()));
        }
        return names;
    }

    static String indexed(String name, int index) {
        return index == 1 ? name : name + "-" + index;
    }
}
