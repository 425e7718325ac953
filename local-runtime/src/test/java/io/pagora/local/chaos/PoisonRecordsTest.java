package io.pagora.local.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentSettled;
import io.pagora.events.Topics;
import io.pagora.local.readside.OutcomeLog;
import io.pagora.local.servers.LocalKafka;
import io.pagora.testing.ServerBacked;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves, against a real local Kafka broker, the chaos catalogue's Kafka paths: the poison producer gets every
 * malformed record (the 512 KiB one included) acknowledged in every partition of every consumed topic, and the
 * outcome log reads the outcomes topic to its end, counting the poison apart from the real outcomes, and finds
 * no dead letters when no dead-letter topic exists.
 */
@ServerBacked
class PoisonRecordsTest {

    @TempDir
    Path dataDir;

    @Test
    void poisonReachesEveryPartitionAndTheOutcomeLogTellsItApartFromOutcomes() throws Exception {
        int port = freePort();
        String bootstrap = "127.0.0.1:" + port;
        KafkaRaftServer broker = LocalKafka.start(dataDir, "127.0.0.1", port, freePort(), Topics.PARTITIONS);
        try {
            String paymentId = "01a20a456eed060caadf1a5855affe00";
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                    new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                producer.send(new ProducerRecord<>(
                                Topics.PAYMENT_OUTCOMES,
                                PaymentEventCodec.encode(new PaymentSettled(
                                        paymentId,
                                        "04000000000000010000000000000001",
                                        "040000000000000200000000000003e9",
                                        100,
                                        Instant.EPOCH,
                                        Instant.EPOCH))))
                        .get(30, TimeUnit.SECONDS);
            }

            int sent = PoisonRecords.send(bootstrap, 30);
            OutcomeLog outcomes = OutcomeLog.read(bootstrap);

            int perTopic = PoisonRecords.poisons().size() * Topics.PARTITIONS;
            assertThat(sent).isEqualTo(perTopic * PoisonRecords.TOPICS.size());
            assertThat(outcomes.records()).isEqualTo(perTopic + 1);
            assertThat(outcomes.undecodable()).isEqualTo(perTopic);
            assertThat(outcomes.statusesByPayment()).containsOnlyKeys(paymentId);
            assertThat(outcomes.conflicting()).isEmpty();
            assertThat(OutcomeLog.deadLettered(bootstrap)).isZero();
        } finally {
            broker.shutdown();
            broker.awaitShutdown();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
