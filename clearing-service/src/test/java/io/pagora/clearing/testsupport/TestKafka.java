package io.pagora.clearing.testsupport;

import io.pagora.clearing.adapter.kafka.KafkaConfiguration;
import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A real Kafka broker (embedded, KRaft) for one test, with every clearing topic created up front
 * (6 partitions each), a producer for requests and raw bytes, and readers of whole topics.
 */
public final class TestKafka implements AutoCloseable {

    private final EmbeddedKafkaKraftBroker broker;
    private final KafkaProducer<String, byte[]> producer;

    private TestKafka(EmbeddedKafkaKraftBroker broker) {
        this.broker = broker;
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                // One request in flight: on a just-created topic, a first batch refused (no leader yet) while
                // the next ones were appended left the broker expecting later sequences, and the retried
                // first batch failed with OUT_OF_ORDER_SEQUENCE_NUMBER until the timeout (a CI run, once).
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1,
                ProducerConfig.LINGER_MS_CONFIG, 5),
                new StringSerializer(), new ByteArraySerializer());
    }

    public static TestKafka start() {
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, Topics.PARTITIONS);
        // Never touch global system properties: every test passes the address explicitly.
        broker.brokerListProperty("pagora.test.kafka.brokers");
        broker.brokerProperty("group.initial.rebalance.delay.ms", "0");
        broker.afterPropertiesSet();
        broker.addTopics(
                topic(Topics.PAYMENTS_REQUESTED), topic(Topics.PAYMENTS_REQUESTED_DEAD_LETTER),
                topic(Topics.PAYMENT_OUTCOMES), topic(Topics.CLEARING_UNANSWERED),
                topic(KafkaConfiguration.UNANSWERED_DEAD_LETTER));
        return new TestKafka(broker);
    }

    private static NewTopic topic(String name) {
        return new NewTopic(name, Topics.PARTITIONS, (short) 1);
    }

    public String bootstrapServers() {
        return broker.getBrokersAsString();
    }

    /** Publishes events keyed by payer (as payment-api does) and waits for every acknowledgement. */
    public void publish(String topic, List<? extends PaymentEvent> events) {
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        for (PaymentEvent event : events) {
            sends.add(producer.send(new ProducerRecord<>(topic, event.key(), PaymentEventCodec.encode(event))));
        }
        await(sends);
    }

    /** Publishes raw bytes (e.g. garbage) under a key, with optional headers; returns where it landed. */
    public RecordMetadata publishRaw(String topic, String key, byte[] value, Map<String, String> headers) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, key, value);
        headers.forEach((name, text) -> record.headers().add(name, text.getBytes(StandardCharsets.UTF_8)));
        List<Future<RecordMetadata>> sends = List.of(producer.send(record));
        await(sends);
        try {
            return sends.getFirst().get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    public RecordMetadata publishRaw(String topic, String key, byte[] value) {
        return publishRaw(topic, key, value, Map.of());
    }

    /** Polls {@code topic} until it holds at least {@code count} records; returns them. */
    public List<ConsumerRecord<String, byte[]>> awaitRecords(String topic, int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<ConsumerRecord<String, byte[]>> records = readAll(topic);
            if (records.size() >= count) {
                return records;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(topic + " holds " + records.size() + " records, not " + count + ", after " + timeout);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** Every record currently in {@code topic}, all partitions, from the beginning. */
    public List<ConsumerRecord<String, byte[]>> readAll(String topic) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
                new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int partition = 0; partition < Topics.PARTITIONS; partition++) {
                partitions.add(new TopicPartition(topic, partition));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < end.get(partition))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end " + end);
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    /** The committed offset of a consumer group on one partition, or -1 if none. */
    public long committedOffset(String group, TopicPartition partition) {
        return broker.doWithAdminFunction(admin -> {
            try {
                var offsets = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
                var offset = offsets.get(partition);
                return offset == null ? -1L : offset.offset();
            } catch (InterruptedException | ExecutionException | TimeoutException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static void await(List<Future<RecordMetadata>> sends) {
        for (Future<RecordMetadata> send : sends) {
            try {
                send.get(30, TimeUnit.SECONDS);
            } catch (InterruptedException | ExecutionException | TimeoutException e) {
                throw new IllegalStateException("test producer could not publish", e);
            }
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
        broker.destroy();
    }
}
