package io.pagora.local.readside;

import io.pagora.events.DeadLetterConvention;
import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.Topics;
import io.pagora.kernel.Check;
import io.pagora.local.chaos.PoisonRecords;
import io.pagora.local.checks.InvariantChecks;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Every final state clearing ever published, read back from the outcomes topic from its first offset:
 * the read model keeps only the first final state of a payment, so a payment that was told two different
 * outcomes (SETTLED and REJECTED, say) is visible only here. The same outcome twice is a redelivery, not a
 * duplicate. Records that are not payment outcomes (poison) are counted and skipped.
 */
public record OutcomeLog(Map<String, Set<String>> statusesByPayment, long records, long undecodable) {

    /**
     * A bound on the read: the outcomes of a chaos run (a few hundred thousand) take seconds, a five-minute bench at
     * 12,000/s (about four million) under a minute.
     */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(600);

    /** Payment ids (normalized, 32 hex digits) with more than one distinct final status. */
    public List<String> conflicting() {
        List<String> conflicting = new ArrayList<>();
        statusesByPayment.forEach((id, statuses) -> {
            if (statuses.size() > 1) {
                conflicting.add(id + " " + statuses);
            }
        });
        conflicting.sort(null);
        return conflicting;
    }

    /** Folds the values of the outcomes topic: each decodable outcome adds its status to its payment. */
    public static OutcomeLog of(List<byte[]> values) {
        Map<String, Set<String>> statuses = new HashMap<>();
        long undecodable = 0;
        for (byte[] value : values) {
            if (!add(statuses, value)) {
                undecodable++;
            }
        }
        return new OutcomeLog(statuses, values.size(), undecodable);
    }

    private static boolean add(Map<String, Set<String>> statuses, byte[] value) {
        if (value == null) {
            return false;
        }
        PaymentEvent event;
        try {
            event = PaymentEventCodec.decode(value);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (!(event instanceof PaymentOutcome outcome)) {
            return false;
        }
        statuses.computeIfAbsent(InvariantChecks.normalize(outcome.paymentId()), id -> new TreeSet<>())
                .add(outcome.status());
        return true;
    }

    /**
     * Records in the dead-letter topics of every consumed topic (the sum of their end offsets): what the services
     * isolated so far.
     */
    public static long deadLettered(String bootstrapServers) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrapServers)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : PoisonRecords.TOPICS) {
                partitions.addAll(partitionsOf(consumer, DeadLetterConvention.topicOf(topic)));
            }
            long records = 0;
            for (long end :
                    consumer.endOffsets(partitions, Duration.ofSeconds(30)).values()) {
                records += end;
            }
            return records;
        }
    }

    /** Reads the outcomes topic from its beginning up to its end offsets at the time of the call. */
    public static OutcomeLog read(String bootstrapServers) {
        List<byte[]> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrapServers)) {
            List<TopicPartition> partitions = partitionsOf(consumer, Topics.PAYMENT_OUTCOMES);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            Instant deadline = Instant.now().plus(READ_TIMEOUT);
            while (!reached(consumer, end)) {
                Check.that(
                        Instant.now().isBefore(deadline),
                        "the outcomes topic was not read to %s within %s",
                        end,
                        READ_TIMEOUT);
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.offset() < end.get(new TopicPartition(record.topic(), record.partition()))) {
                        values.add(record.value());
                    }
                }
            }
        }
        return of(values);
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrapServers) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG,
                false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
                10_000,
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                30_000);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** A topic's partitions; none when the topic does not exist (a dead-letter topic nothing was sent to). */
    private static List<TopicPartition> partitionsOf(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        List<TopicPartition> partitions = new ArrayList<>();
        List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
        for (PartitionInfo info : infos == null ? List.<PartitionInfo>of() : infos) {
            partitions.add(new TopicPartition(info.topic(), info.partition()));
        }
        return partitions;
    }

    private static boolean reached(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> partition : end.entrySet()) {
            if (consumer.position(partition.getKey()) < partition.getValue()) {
                return false;
            }
        }
        return true;
    }
}
