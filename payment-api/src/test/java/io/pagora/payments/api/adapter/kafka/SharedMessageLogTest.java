package io.pagora.payments.api.adapter.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.Topics;
import io.pagora.events.participant.MessageRecords;
import io.pagora.payments.api.application.streams.ParticipantStreams;
import io.pagora.payments.api.application.streams.StreamPositions;
import io.pagora.settlement.domain.BankId;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Two banks whose messages share a partition, each pulling its own stream through the streams as payment-api serves
 * them, over Kafka: each gets exactly its own messages, in order, and the partition is fetched once for both.
 */
@ServerBacked
class SharedMessageLogTest {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);
    private static final int RECORDS_PER_BANK = 300;
    private static final int MESSAGES_PER_PULL = 40;
    private static final int PULLS_MAX = 1_000;

    @Test
    void twoBanksOnOnePartitionEachGetTheirOwnInOrderAndThePartitionIsFetchedOnce() throws Exception {
        TestKafka kafka = TestKafka.shared();
        Map<String, Object> properties = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        createMessagesTopic(kafka);
        try (KafkaMessageLog own = new KafkaMessageLog(properties, 4, READ_TIMEOUT);
                SharedMessageLog log = new SharedMessageLog(properties, own, READ_TIMEOUT)) {
            BankId first = new BankId(77_780_001);
            BankId second = sharingAPartitionWith(first, own);
            int partition = own.partitionOf(first);
            Positions positions = new Positions();
            long end = endOffset(kafka, partition);
            positions.acknowledge(first, partition, end);
            positions.acknowledge(second, partition, end);
            List<String> firstSent = new ArrayList<>();
            List<String> secondSent = new ArrayList<>();
            for (int i = 0; i < RECORDS_PER_BANK; i++) {
                firstSent.add(publish(kafka, first, "first-" + i, partition));
                secondSent.add(publish(kafka, second, "second-" + i, partition));
            }
            ParticipantStreams streams = new ParticipantStreams(
                    log,
                    positions,
                    new ParticipantStreams.Limits(
                            6,
                            MESSAGES_PER_PULL,
                            Duration.ofMillis(500),
                            Duration.ofSeconds(10),
                            Duration.ofSeconds(60)),
                    Clock.systemUTC());

            List<String> firstGot = new ArrayList<>();
            List<String> secondGot = new ArrayList<>();
            String firstToken = take(streams.start(first), firstGot);
            String secondToken = take(streams.start(second), secondGot);
            for (int pulls = 0;
                    pulls < PULLS_MAX && (firstGot.size() < RECORDS_PER_BANK || secondGot.size() < RECORDS_PER_BANK);
                    pulls++) {
                firstToken = take(streams.pull(first, firstToken), firstGot);
                secondToken = take(streams.pull(second, secondToken), secondGot);
            }
            streams.close(first, firstToken);
            streams.close(second, secondToken);

            assertThat(firstGot)
                    .as("exactly the first bank's messages, in order")
                    .isEqualTo(firstSent);
            assertThat(secondGot)
                    .as("exactly the second bank's messages, in order")
                    .isEqualTo(secondSent);
            assertThat(log.recordsFetched())
                    .as("the partition's records fetched once for both banks")
                    .isEqualTo(2L * RECORDS_PER_BANK);
            long after = endOffset(kafka, partition);
            assertThat(List.of(positions.saved.get(first), positions.saved.get(second)))
                    .as("each bank's acknowledged position past its last message")
                    .allSatisfy(position -> assertThat(position).isBetween(after - 1, after));
        }
    }

    /** The pull's messages (one a record here) added to {@code got}; its next token. */
    private static String take(ParticipantStreams.Pull pull, List<String> got) {
        for (byte[] record : pull.records()) {
            String text = new String(record, StandardCharsets.UTF_8);
            got.add(text.substring(2, text.length() - 2));
        }
        return pull.nextToken();
    }

    private static BankId sharingAPartitionWith(BankId bank, KafkaMessageLog log) {
        for (int ispb = bank.ispb() + 1; ispb < bank.ispb() + 1_000; ispb++) {
            BankId other = new BankId(ispb);
            if (log.partitionOf(other) == log.partitionOf(bank)) {
                return other;
            }
        }
        throw new AssertionError("no bank shares a partition with " + bank);
    }

    private static String publish(TestKafka kafka, BankId bank, String text, int partition) {
        var written = kafka.publishRaw(
                Topics.PARTICIPANT_MESSAGES,
                bank.toString(),
                ("[\"" + text + "\"]").getBytes(StandardCharsets.UTF_8),
                Map.of(MessageRecords.COUNT_HEADER, "1"));
        assertThat(written.partition())
                .as("the producer's partition, as partitionOf says")
                .isEqualTo(partition);
        return text;
    }

    private static long endOffset(TestKafka kafka, int partition) throws Exception {
        TopicPartition topicPartition = new TopicPartition(Topics.PARTICIPANT_MESSAGES, partition);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            return admin.listOffsets(Map.of(topicPartition, OffsetSpec.latest()))
                    .partitionResult(topicPartition)
                    .get()
                    .offset();
        }
    }

    private static void createMessagesTopic(TestKafka kafka) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            Set<String> existing = admin.listTopics().names().get();
            if (!existing.contains(Topics.PARTICIPANT_MESSAGES)) {
                admin.createTopics(List.of(new NewTopic(Topics.PARTICIPANT_MESSAGES, Topics.PARTITIONS, (short) 1)))
                        .all()
                        .get();
            }
        }
    }

    static final class Positions implements StreamPositions {
        final Map<BankId, Long> saved = new ConcurrentHashMap<>();

        @Override
        public OptionalLong acknowledged(BankId bank, int partition) {
            Long position = saved.get(bank);
            return position == null ? OptionalLong.empty() : OptionalLong.of(position);
        }

        @Override
        public void acknowledge(BankId bank, int partition, long position) {
            assertThat(position).as("positions only move forward").isGreaterThanOrEqualTo(saved.getOrDefault(bank, 0L));
            saved.put(bank, position);
        }
    }
}
