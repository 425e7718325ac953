package io.pagora.local.launcher.platform;

import io.pagora.local.launcher.Console;
import io.pagora.local.launcher.Layout;
import io.pagora.local.launcher.Supervisor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The platform's Kafka (KRaft) nodes: started together, each waited for; a quorum shares one cluster id. */
public final class KafkaNodes {

    private static final int READY_SECONDS = 120;

    private final Platform platform;

    KafkaNodes(Platform platform) {
        this.platform = platform;
    }

    /**
     * Every Kafka node of the topology, launched together (a quorum elects its leader only once a majority runs),
     * then each waited for. Nodes of a quorum share a cluster id, chosen when their data is new.
     */
    public void startKafka() {
        Topology topology = platform.runningTopology();
        String clusterId = topology.kafkaNodes() == 1 ? "" : kafkaClusterId();
        Map<String, Long> launched = new LinkedHashMap<>();
        for (Topology.Instance node : topology.kafka()) {
            if (platform.supervisor.alive(node.name())) {
                Console.say("%s already running", node.name());
                continue;
            }
            launched.put(node.name(), startKafkaNode(topology, node, clusterId));
        }
        launched.forEach((name, logOffset) ->
                platform.supervisor.waitForLogLine(name, logOffset, "LocalKafka: ready", READY_SECONDS));
    }

    /** Starts one Kafka node (also chaos's restart of a killed one); returns its log's offset before the start. */
    long startKafkaNode(Topology topology, Topology.Instance node, String clusterId) {
        Supervisor.requireFreePort(node.name(), node.port());
        Supervisor.requireFreePort(node.name() + "-controller", node.port() + 1);
        Path data = platform.layout.var().resolve(node.name());
        Console.say(
                "starting %s (KRaft node %d of %d, local-runtime LocalKafka) on %s:%d, data %s",
                node.name(), node.index(), topology.kafkaNodes(), Layout.HOST, node.port(), data);
        List<String> arguments = new ArrayList<>(
                List.of("--data-dir=" + data, "--port=" + node.port(), "--controller-port=" + (node.port() + 1)));
        if (topology.kafkaNodes() > 1) {
            arguments.addAll(List.of(
                    "--node-id=" + node.index(),
                    "--voters=" + topology.kafkaVoters(),
                    "--cluster-id=" + clusterId,
                    "--replication-factor=" + topology.replicationFactor()));
        }
        // A node of three gets less heap: three brokers and seven other JVMs share the machine (docs/scale-out.md).
        String heap = topology.kafkaNodes() == 1 ? "-Xmx1g" : "-Xmx512m";
        return platform.supervisor
                .launch(
                        node.name(),
                        platform.tools.command(List.of("-Xms256m", heap), "kafka", arguments),
                        Map.of(),
                        true)
                .logOffset();
    }

    /** The quorum's cluster id: chosen once per fresh data, kept beside it so a restarted node formats alike. */
    String kafkaClusterId() {
        Path file = platform.layout.var().resolve("kafka-cluster-id");
        return Postgres.read(file).orElseGet(() -> {
            String id = org.apache.kafka.common.Uuid.randomUuid().toString();
            Postgres.write(file, id);
            return id;
        });
    }
}
