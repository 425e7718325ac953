package io.pagora.e2e.support;

import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A real Kafka broker (embedded, KRaft) for one scenario, with every Pagora topic created up front with
 * {@link Topics#PARTITIONS} partitions, before any service produces: kafka-clients 4.2.1 can lose an
 * idempotent batch produced in the instant after a topic's automatic creation (KAFKA-15591).
 */
public final class TestKafka implements AutoCloseable {

    /** Every topic the three services read or write, dead letters included. */
    public static final List<String> TOPICS = List.of(
            Topics.PAYMENTS_REQUESTED, Topics.PAYMENTS_REQUESTED_DEAD_LETTER,
            Topics.PAYMENT_OUTCOMES, Topics.PAYMENT_OUTCOMES_DEAD_LETTER,
            Topics.CLEARING_UNANSWERED, Topics.CLEARING_UNANSWERED + ".dlt");

    private final EmbeddedKafkaKraftBroker broker;

    private TestKafka(EmbeddedKafkaKraftBroker broker) {
        this.broker = broker;
    }

    public static TestKafka start() {
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, Topics.PARTITIONS, TOPICS.toArray(String[]::new));
        // Never touch the JVM's system properties: the address is passed to each service explicitly.
        broker.brokerListProperty("pagora.e2e.kafka.brokers");
        // Consumers of a restarted service get their partitions at once, not after the default 3 s.
        broker.brokerProperty("group.initial.rebalance.delay.ms", "0");
        broker.afterPropertiesSet();
        return new TestKafka(broker);
    }

    public String bootstrapServers() {
        return broker.getBrokersAsString();
    }

    /** Every payment event currently in {@code topic} (all partitions, committed records only). */
    public List<PaymentEvent> events(String topic) {
        List<PaymentEvent> events = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : records(topic)) {
            events.add(PaymentEventCodec.decode(record.value()));
        }
        return events;
    }

    /** Every record currently in {@code topic}, from the beginning to the end offsets read first. */
    public List<ConsumerRecord<byte[], byte[]>> records(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = partitions(topic);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < end.get(partition))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end offsets " + end);
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    /** How many records a consumer group has not committed yet on {@code topic}, over all partitions. */
    public long lag(String group, String topic) {
        return broker.doWithAdminFunction(admin -> {
            try {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                        .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
                Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
                partitions(topic).forEach(partition -> latest.put(partition, OffsetSpec.latest()));
                var ends = admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS);
                long lag = 0;
                for (TopicPartition partition : partitions(topic)) {
                    OffsetAndMetadata offset = committed.get(partition);
                    lag += ends.get(partition).offset() - (offset == null ? 0 : offset.offset());
                }
                return lag;
            } catch (InterruptedException | ExecutionException | TimeoutException e) {
                throw new IllegalStateException("could not read the offsets of group " + group, e);
            }
        });
    }

    private static List<TopicPartition> partitions(String topic) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (int partition = 0; partition < Topics.PARTITIONS; partition++) {
            partitions.add(new TopicPartition(topic, partition));
        }
        return partitions;
    }

    @Override
    public void close() {
        broker.destroy();
    }
}
