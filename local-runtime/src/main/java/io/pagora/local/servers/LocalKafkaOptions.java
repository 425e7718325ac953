package io.pagora.local.servers;

import io.pagora.local.cli.Options;
import java.nio.file.Path;

/** The local Kafka node's command line (kafka), read once: its defaults are written here. */
record LocalKafkaOptions(
        Path dataDir, String host, int port, int controllerPort, int partitions, LocalKafka.Node node) {

    static LocalKafkaOptions parse(String[] args) {
        Options options = new Options("kafka", args);
        Path dataDir = options.path("data-dir").toAbsolutePath();
        String host = options.string("host", "127.0.0.1");
        int port = options.integer("port", 9092);
        int controllerPort = options.integer("controller-port", 9093);
        int partitions = options.integer("partitions", 6);
        LocalKafka.Node node = new LocalKafka.Node(
                options.integer("node-id", 1),
                options.string("voters", "1@" + host + ":" + controllerPort),
                options.string("cluster-id", ""),
                options.integer("replication-factor", 1));
        options.rejectUnknown();
        return new LocalKafkaOptions(dataDir, host, port, controllerPort, partitions, node);
    }
}
