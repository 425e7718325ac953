package io.pagora.local.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.ConsumerGroups;
import io.pagora.events.Topics;
import io.pagora.local.readside.ProjectionLag;
import io.pagora.local.servers.LocalKafka;
import io.pagora.testing.ServerBacked;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drain before a run is judged ends only when the read model holds every accepted payment final. The counts alone
 * are not enough: payments accepted whose answers were lost (time-outs) become final too, so the final count reaches
 * the generator's accepted count while payments it was told are accepted are still on their way; judged then, a run
 * with 2,572 calls unanswered showed "100 missing, 117 not final" and its invariant checks FAILED on a sound platform.
 */
@ServerBacked
class BenchDrainTest {

    static final long ACCEPTED = 10;

    @Test
    void aReadModelWithRecordsStillToProjectHoldsTheDrainHoweverTheCountsAgree() throws Exception {
        Bench.DrainLooks looks = new Bench.DrainLooks(() -> ACCEPTED, () -> ACCEPTED, () -> 0, () -> 2);

        assertThat(Bench.drain(looks, 0, 0, 1))
                .as("2 records not projected: not drained")
                .isFalse();
    }

    @Test
    void aPaymentStillAcceptedInTheReadModelHoldsTheDrainAndKafkaIsNotAskedMeanwhile() throws Exception {
        AtomicInteger kafkaLooks = new AtomicInteger();
        Bench.DrainLooks looks =
                new Bench.DrainLooks(() -> ACCEPTED, () -> ACCEPTED, () -> 1, () -> kafkaLooks.incrementAndGet() * 0L);

        assertThat(Bench.drain(looks, 0, 0, 1)).isFalse();
        assertThat(kafkaLooks).as("the dearer look waits for the cheaper ones").hasValue(0);
    }

    @Test
    void theDrainEndsOnceEverythingIsFinalAndProjected() throws Exception {
        Bench.Look projecting = countdown(2);
        Bench.DrainLooks looks = new Bench.DrainLooks(() -> ACCEPTED, () -> ACCEPTED + 3, () -> 0, projecting);

        assertThat(Bench.drain(looks, 0, 0, 10)).isTrue();
    }

    @Test
    void acceptedPaymentsNotFinalYetHoldTheDrainWhateverElseSays() throws Exception {
        Bench.DrainLooks looks = new Bench.DrainLooks(() -> ACCEPTED, () -> ACCEPTED - 1, () -> 0, () -> 0);

        assertThat(Bench.drain(looks, 0, 0, 1)).isFalse();
    }

    @Test
    void aPartitionTheGroupNeverCommittedIsWhollyUnprojected() {
        TopicPartition requests0 = new TopicPartition(Topics.PAYMENTS_REQUESTED, 0);
        TopicPartition requests1 = new TopicPartition(Topics.PAYMENTS_REQUESTED, 1);
        TopicPartition outcomes0 = new TopicPartition(Topics.PAYMENT_OUTCOMES, 0);
        Map<TopicPartition, ListOffsetsResultInfo> ends =
                Map.of(requests0, end(100), requests1, end(40), outcomes0, end(7));
        Map<TopicPartition, OffsetAndMetadata> committed =
                Map.of(requests0, new OffsetAndMetadata(100), outcomes0, new OffsetAndMetadata(5));

        assertThat(ProjectionLag.behind(ends, committed)).isEqualTo(0 + 40 + 2);
        assertThat(ProjectionLag.behind(
                        ends,
                        Map.of(
                                requests0,
                                new OffsetAndMetadata(100),
                                requests1,
                                new OffsetAndMetadata(40),
                                outcomes0,
                                new OffsetAndMetadata(7))))
                .isZero();
    }

    /** On a real broker: records published past the group's committed offsets, on both topics, and none once committed. */
    @Test
    void theLagIsWhatTheProjectionGroupHasStillToReadOnARealBroker(@TempDir Path dataDir) throws Exception {
        int port = freePort();
        String bootstrap = "127.0.0.1:" + port;
        KafkaRaftServer kafka = LocalKafka.start(dataDir, "127.0.0.1", port, freePort(), 2);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(ProjectionLag.PROJECTED_TOPICS.stream()
                            .map(topic -> new NewTopic(topic, 2, (short) 1))
                            .toList())
                    .all()
                    .get(30, TimeUnit.SECONDS);
            TopicPartition requests = new TopicPartition(Topics.PAYMENTS_REQUESTED, 0);
            TopicPartition outcomes = new TopicPartition(Topics.PAYMENT_OUTCOMES, 1);
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                    new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>(requests.topic(), requests.partition(), null, new byte[] {1}))
                            .get();
                }
                for (int i = 0; i < 2; i++) {
                    producer.send(new ProducerRecord<>(outcomes.topic(), outcomes.partition(), null, new byte[] {2}))
                            .get();
                }
            }
            long nothingCommitted = ProjectionLag.unprojected(bootstrap);
            commit(admin, Map.of(requests, new OffsetAndMetadata(3)));
            long requestsCommitted = ProjectionLag.unprojected(bootstrap);
            commit(admin, Map.of(outcomes, new OffsetAndMetadata(2)));

            assertThat(nothingCommitted).isEqualTo(5);
            assertThat(requestsCommitted).isEqualTo(2);
            assertThat(ProjectionLag.unprojected(bootstrap)).isZero();
        } finally {
            kafka.shutdown();
            kafka.awaitShutdown();
        }
    }

    private static void commit(Admin admin, Map<TopicPartition, OffsetAndMetadata> offsets) throws Exception {
        admin.alterConsumerGroupOffsets(ProjectionLag.REPORTING_GROUP, offsets)
                .all()
                .get(30, TimeUnit.SECONDS);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** The group the lag is read for is the one reporting-service's projection commits with (its record's default). */
    @Test
    void theLagIsReadForReportingsProjectionGroup() throws Exception {
        String properties = Files.readString(Path.of(
                "..",
                "reporting-service",
                "src",
                "main",
                "java",
                "io",
                "pagora",
                "reporting",
                "ReportingProperties.java"));

        assertThat(properties).contains("PROJECTION_GROUP = ConsumerGroups.REPORTING;");
        assertThat(ProjectionLag.REPORTING_GROUP).isEqualTo(ConsumerGroups.REPORTING);
    }

    private static Bench.Look countdown(long from) {
        AtomicInteger looks = new AtomicInteger();
        return () -> Math.max(0, from - looks.getAndIncrement());
    }

    private static ListOffsetsResultInfo end(long offset) {
        return new ListOffsetsResultInfo(offset, -1, java.util.Optional.empty());
    }
}
