package io.pagora.reporting.testsupport;

import io.pagora.events.ConsumerGroups;
import io.pagora.events.Topics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What clearing does after it has posted a poll's payments and Kafka acknowledged their outcomes: it commits its
 * group's offsets on the requests topic. The reporting tests publish the outcomes themselves (they play clearing),
 * so they commit clearing's group past every request published so far, after the ledger holds what those requests
 * settled and the outcomes were acknowledged. A real consumer of clearing's group, committing without joining it.
 */
public final class ClearingProgress implements AutoCloseable {

    /** Clearing's consumer group on the requests topic (its default {@code pagora.clearing.group-id}). */
    public static final String CLEARING_GROUP = ConsumerGroups.CLEARING;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions;

    public ClearingProgress(String bootstrapServers) {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG,
                CLEARING_GROUP,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class));
        partitions = consumer.partitionsFor(Topics.PAYMENTS_REQUESTED).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition()))
                .toList();
    }

    /** Once: commits clearing's group past every request published so far. */
    public static void clearedEverythingPublished(String bootstrapServers) {
        try (ClearingProgress clearing = new ClearingProgress(bootstrapServers)) {
            clearing.clearedEverythingPublished();
        }
    }

    /** Commits clearing's group at the end of every requests partition: every request published so far is cleared. */
    public void clearedEverythingPublished() {
        Map<TopicPartition, OffsetAndMetadata> ends = new HashMap<>();
        consumer.endOffsets(partitions).forEach((partition, end) -> ends.put(partition, new OffsetAndMetadata(end)));
        consumer.commitSync(ends);
    }

    @Override
    public void close() {
        consumer.close();
    }
}
