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
import java.util.Set;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local broker is a real, durable Kafka: what it acknowledged (acks=all) is still there after a restart. */
@ServerBacked
class LocalKafkaTest {

    private static final String TOPIC = "pagora.local-kafka-test.v1";

    @TempDir
    Path dataDir;

    /**
     * The topic's partitions once the broker's metadata has them: right after the creation is acknowledged, a describe
     * may still answer unknown-topic-or-partition, so it is asked again, for a bounded time.
     */
    private static java.util.List<org.apache.kafka.common.TopicPartitionInfo> describedPartitions(Admin admin)
            throws Exception {
        return await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptionsMatching(e -> e instanceof java.util.concurrent.ExecutionException
                        && e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException)
                .until(
                        () -> admin.describeTopics(Set.of(TOPIC))
                                .allTopicNames()
                                .get(30, TimeUnit.SECONDS)
                                .get(TOPIC)
                                .partitions(),
                        partitions -> true);
    }

    @Test
    void keepsAcknowledgedRecordsAcrossARestart() throws Exception {
        int port = freePort();
        int controllerPort = freePort();
        String bootstrap = "127.0.0.1:" + port;

        KafkaRaftServer first = LocalKafka.start(dataDir, "127.0.0.1", port, controllerPort, 6);
        try {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 6, (short) 1)))
                        .all()
                        .get(30, TimeUnit.SECONDS);
                assertThat(describedPartitions(admin)).hasSize(6);
            }
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
                            30_000),
                    new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                for (int i = 0; i < 10; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, bytes("key-" + i), bytes("value-" + i)))
                            .get(30, TimeUnit.SECONDS);
                }
            }
        } finally {
            first.shutdown();
            first.awaitShutdown();
        }

        KafkaRaftServer second = LocalKafka.start(dataDir, "127.0.0.1", port, controllerPort, 6);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                        ConsumerConfig.GROUP_ID_CONFIG, "local-kafka-test",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(TOPIC));
            List<String> values = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (values.size() < 10 && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    values.add(new String(record.value(), StandardCharsets.UTF_8));
                }
            }
            assertThat(values)
                    .containsExactlyInAnyOrder(
                            "value-0", "value-1", "value-2", "value-3", "value-4", "value-5", "value-6", "value-7",
                            "value-8", "value-9");
        } finally {
            second.shutdown();
            second.awaitShutdown();
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
