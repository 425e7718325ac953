package io.pagora.local.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pagora.testing.ServerBacked;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three LocalKafka nodes as the scaled platform runs them (docs/scale-out.md): one cluster, each node a voter of the
 * metadata quorum; a topic replicated 3 times with min.insync.replicas 2 takes acks=all writes with the quorum's leader
 * (the active controller, also a broker) gone, and the two others elect a new leader.
 */
@ServerBacked
class LocalKafkaQuorumTest {

    private static final String TOPIC = "pagora.local-kafka-quorum-test.v1";
    private static final int NODES = 3;

    @TempDir
    Path dataDir;

    @Test
    void aReplicatedTopicTakesWritesWithTheControllerGoneAndTheQuorumElectsAnother() throws Exception {
        List<Integer> ports =
                IntStream.range(0, NODES * 2).mapToObj(i -> freePort()).toList();
        String voters = IntStream.rangeClosed(1, NODES)
                .mapToObj(id -> id + "@127.0.0.1:" + ports.get(NODES + id - 1))
                .collect(Collectors.joining(","));
        String bootstrap = IntStream.range(0, NODES)
                .mapToObj(i -> "127.0.0.1:" + ports.get(i))
                .collect(Collectors.joining(","));
        String clusterId = Uuid.randomUuid().toString();
        // Started together: a node's start waits for a quorum of controllers.
        List<CompletableFuture<KafkaRaftServer>> starting = new ArrayList<>();
        for (int id = 1; id <= NODES; id++) {
            int node = id;
            starting.add(CompletableFuture.supplyAsync(() -> start(node, ports, voters, clusterId)));
        }
        List<KafkaRaftServer> servers = new ArrayList<>();
        for (CompletableFuture<KafkaRaftServer> server : starting) {
            servers.add(server.get(120, TimeUnit.SECONDS));
        }
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                10_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                30_000))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 3).configs(Map.of("min.insync.replicas", "2"))))
                    .all()
                    .get(30, TimeUnit.SECONDS);
            awaitFullyReplicated(admin);
            send(bootstrap, 10);
            long started = System.nanoTime();

            int leader = admin.describeMetadataQuorum()
                    .quorumInfo()
                    .get(30, TimeUnit.SECONDS)
                    .leaderId();
            assertThat(leader).isBetween(1, NODES);
            KafkaRaftServer stopped = servers.get(leader - 1);
            stopped.shutdown();
            stopped.awaitShutdown();

            send(bootstrap, 10);
            int next = admin.describeMetadataQuorum()
                    .quorumInfo()
                    .get(30, TimeUnit.SECONDS)
                    .leaderId();
            assertThat(next)
                    .as("a new quorum leader among the two left")
                    .isNotEqualTo(leader)
                    .isBetween(1, NODES);
            System.out.printf(
                    "[LocalKafkaQuorumTest] quorum leader %d stopped; writes went on and node %d leads, %d ms%n",
                    leader, next, (System.nanoTime() - started) / 1_000_000);
        } finally {
            // Together, as the launcher stops a quorum: one stopped after the others waits for a controller majority.
            CompletableFuture.allOf(servers.stream()
                            .map(server -> CompletableFuture.runAsync(() -> {
                                server.shutdown();
                                server.awaitShutdown();
                            }))
                            .toArray(CompletableFuture[]::new))
                    .get(120, TimeUnit.SECONDS);
        }
    }

    /**
     * A created topic reaches each broker's metadata a moment later: until then a describe may answer "this server does
     * not host this topic-partition". Asked again, bounded, until every partition has its three replicas in sync.
     */
    private static void awaitFullyReplicated(Admin admin) {
        await("the topic fully replicated")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptionsMatching(e ->
                        e instanceof ExecutionException && e.getCause() instanceof UnknownTopicOrPartitionException)
                .until(
                        () -> admin.describeTopics(List.of(TOPIC))
                                .allTopicNames()
                                .get(30, TimeUnit.SECONDS)
                                .get(TOPIC)
                                .partitions(),
                        partitions -> partitions.size() == 3
                                && partitions.stream()
                                        .allMatch(partition -> partition.isr().size() == NODES));
    }

    private KafkaRaftServer start(int id, List<Integer> ports, String voters, String clusterId) {
        try {
            return LocalKafka.start(
                    dataDir.resolve("node-" + id),
                    "127.0.0.1",
                    ports.get(id - 1),
                    ports.get(NODES + id - 1),
                    3,
                    new LocalKafka.Node(id, voters, clusterId, NODES));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** acks=all on a topic of min.insync.replicas 2: each send returns once two replicas have it. */
    private static void send(String bootstrap, int records) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        true,
                        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                        10_000,
                        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                        60_000),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(
                                TOPIC,
                                ("key-" + i).getBytes(StandardCharsets.UTF_8),
                                ("value-" + i).getBytes(StandardCharsets.UTF_8)))
                        .get(60, TimeUnit.SECONDS);
            }
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
