package io.pagora.local.servers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * A real Kafka node in KRaft mode (broker and controller in one process), the same server code as the
 * {@code apache/kafka} image, for machines without Docker: alone (one node, replication factor 1), or one of a
 * quorum of {@code --voters} (each node its own process, formatted with the same {@code --cluster-id}; internal
 * topics replicated {@code --replication-factor} times with {@code min.insync.replicas} one less, at least 1).
 *
 * <p>Data lives in {@code --data-dir} and survives restarts: the log directory is formatted once
 * (a second format is skipped), so an {@code up} after a {@code down} keeps topics and offsets.
 * Listens on 127.0.0.1 only. Runs until SIGTERM/SIGINT, then shuts down cleanly (controlled shutdown,
 * logs flushed) before the JVM exits.
 */
public final class LocalKafka {

    private LocalKafka() {}

    public static void main(String[] args) throws Exception {
        LocalKafkaOptions options = LocalKafkaOptions.parse(args);

        KafkaRaftServer server = start(
                options.dataDir(),
                options.host(),
                options.port(),
                options.controllerPort(),
                options.partitions(),
                options.node());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            System.out.println("LocalKafka: stopping");
                            server.shutdown();
                            server.awaitShutdown();
                            stopped.countDown();
                            System.out.println("LocalKafka: stopped");
                        },
                        "local-kafka-shutdown"));
        System.out.printf(
                "LocalKafka: ready on %s:%d (KRaft, controller %s:%d, data %s)%n",
                options.host(), options.port(), options.host(), options.controllerPort(), options.dataDir());
        stopped.await();
    }

    /**
     * This node's place in its quorum.
     *
     * @param id the node id, one of the voters'
     * @param voters {@code id@host:controllerPort,...}: every controller of the quorum
     * @param clusterId the cluster id every node is formatted with (empty: a new random one, for a lone node)
     * @param replicationFactor how many copies of each internal topic (consumer offsets, transaction state)
     */
    record Node(int id, String voters, String clusterId, int replicationFactor) {

        Node {
            if (id < 1 || !(',' + voters).contains("," + id + "@")) {
                throw new IllegalArgumentException("node id " + id + " is not one of the voters " + voters);
            }
            int voterCount = voters.split(",").length;
            if (replicationFactor < 1 || replicationFactor > voterCount) {
                throw new IllegalArgumentException(
                        "replication factor in [1, " + voterCount + "]: " + replicationFactor);
            }
            if (voterCount > 1 && clusterId.isEmpty()) {
                throw new IllegalArgumentException("the nodes of a quorum share one --cluster-id");
            }
        }

        static Node alone(String host, int controllerPort) {
            return new Node(1, "1@" + host + ":" + controllerPort, "", 1);
        }

        /** Writes to a topic stay possible with one replica down: at least 2 copies when there are 3. */
        int minInsyncReplicas() {
            return Math.max(1, replicationFactor - 1);
        }
    }

    /** Formats {@code dataDir} if it is new, then starts a lone broker; returns once it serves requests. */
    public static KafkaRaftServer start(Path dataDir, String host, int port, int controllerPort, int partitions)
            throws IOException {
        return start(dataDir, host, port, controllerPort, partitions, Node.alone(host, controllerPort));
    }

    /** Formats {@code dataDir} if it is new, then starts this node of its quorum. */
    public static KafkaRaftServer start(
            Path dataDir, String host, int port, int controllerPort, int partitions, Node node) throws IOException {
        Files.createDirectories(dataDir);
        Properties properties = serverProperties(dataDir, host, port, controllerPort, partitions, node);
        Path propertiesFile = dataDir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(propertiesFile)) {
            properties.store(out, "written by io.pagora.local.servers.LocalKafka on every start");
        }
        if (Files.exists(dataDir.resolve("logs").resolve("meta.properties"))) {
            System.out.println("LocalKafka: log directory already formatted, keeping its data");
        } else {
            format(
                    propertiesFile,
                    node.clusterId().isEmpty() ? Uuid.randomUuid().toString() : node.clusterId());
        }
        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(properties, false), Time.SYSTEM);
        server.startup();
        return server;
    }

    static Properties serverProperties(
            Path dataDir, String host, int port, int controllerPort, int partitions, Node node) {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", Integer.toString(node.id()));
        p.setProperty("controller.quorum.voters", node.voters());
        p.setProperty("listeners", "PLAINTEXT://" + host + ":" + port + ",CONTROLLER://" + host + ":" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://" + host + ":" + port);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("log.dirs", dataDir.resolve("logs").toString());
        // Internal topics as replicated as the node's quorum allows (one node: a single replica). A topic the
        // services declare sets its own replication (pagora.topics.*); these are the brokers' defaults.
        String copies = Integer.toString(node.replicationFactor());
        String insync = Integer.toString(node.minInsyncReplicas());
        p.setProperty("offsets.topic.replication.factor", copies);
        p.setProperty("offsets.topic.num.partitions", "6");
        p.setProperty("transaction.state.log.replication.factor", copies);
        p.setProperty("transaction.state.log.min.isr", insync);
        p.setProperty("transaction.state.log.num.partitions", "6");
        p.setProperty("share.coordinator.state.topic.replication.factor", copies);
        p.setProperty("share.coordinator.state.topic.min.isr", insync);
        p.setProperty("default.replication.factor", copies);
        p.setProperty("min.insync.replicas", insync);
        // The services declare their topics (NewTopic beans); a topic created implicitly still gets
        // the project's partition count rather than 1.
        p.setProperty("num.partitions", Integer.toString(partitions));
        // Consumers of a fresh group start at once instead of waiting 3 s for more members.
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("log.retention.hours", "168");
        return p;
    }

    /** Formats a new log directory with the cluster id (the format tool refuses to re-format with another). */
    private static void format(Path propertiesFile, String clusterId) {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        int status;
        try (PrintStream print = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            status = StorageTool.execute(
                    new String[] {"format", "--cluster-id", clusterId, "--config", propertiesFile.toString()}, print);
        }
        System.out.print("LocalKafka: " + output.toString(StandardCharsets.UTF_8));
        if (status != 0) {
            throw new IllegalStateException("formatting the Kafka log directory failed with status " + status);
        }
    }
}
