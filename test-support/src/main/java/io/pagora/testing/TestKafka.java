package io.pagora.testing;

import io.pagora.events.DeadLetterConvention;
import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
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
 * A real Kafka broker (embedded, KRaft, in this JVM), with a producer of payment events and raw bytes, readers
 * of whole topics and of consumer groups' offsets. Every module's Kafka tests use this one.
 *
 * <p>{@link #start()} gives a test its own broker with every Pagora topic created up front with
 * {@link Topics#PARTITIONS} partitions, before any service or test produces: kafka-clients 4.2.1 can lose an
 * idempotent batch produced in the instant after a topic's automatic creation (KAFKA-15591).
 * {@link #shared()} is one broker for the whole test JVM, with no topic created: the service under test
 * declares its own, as in production.
 */
public final class TestKafka implements AutoCloseable {

    /** Every topic the three services read or write, dead letters included. */
    public static final List<String> TOPICS = List.of(
            Topics.PAYMENTS_REQUESTED, Topics.PAYMENTS_REQUESTED_DEAD_LETTER,
            Topics.PAYMENT_OUTCOMES, Topics.PAYMENT_OUTCOMES_DEAD_LETTER,
            Topics.CLEARING_UNANSWERED, DeadLetterConvention.topicOf(Topics.CLEARING_UNANSWERED));

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);

    private static TestKafka shared;

    private final EmbeddedKafkaKraftBroker broker;
    private KafkaProducer<String, byte[]> producer;

    private TestKafka(EmbeddedKafkaKraftBroker broker) {
        this.broker = broker;
    }

    /** A broker of the caller's own, every Pagora topic created; {@link #close()} stops it. */
    public static TestKafka start() {
        return start(TOPICS);
    }

    /** One broker per test JVM, no topic created up front; stopped when the JVM exits. */
    public static synchronized TestKafka shared() {
        if (shared == null) {
            shared = start(List.of());
            Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "stop-test-kafka"));
        }
        return shared;
    }

    private static TestKafka start(List<String> topics) {
        TestLane.requireServerLane("Kafka (TestKafka)");
        EmbeddedKafkaKraftBroker broker =
                new EmbeddedKafkaKraftBroker(1, Topics.PARTITIONS, topics.toArray(String[]::new));
        // Never touch the JVM's system properties: every test passes the address explicitly.
        broker.brokerListProperty("pagora.test.kafka.brokers");
        // Consumers of a (re)started service get their partitions at once, not after the default 3 s.
        broker.brokerProperty("group.initial.rebalance.delay.ms", "0");
        broker.afterPropertiesSet();
        return new TestKafka(broker);
    }

    public String bootstrapServers() {
        return broker.getBrokersAsString();
    }

    /** Publishes events keyed by payer (as payment-api does) and waits for every acknowledgement. */
    public void publish(String topic, List<? extends PaymentEvent> events) {
        List<Future<RecordMetadata>> sends = new ArrayList<>();
        for (PaymentEvent event : events) {
            sends.add(producer().send(new ProducerRecord<>(topic, event.key(), PaymentEventCodec.encode(event))));
        }
        await(sends);
    }

    /** Publishes raw bytes (e.g. garbage) under a key, with optional headers; returns where it landed. */
    public RecordMetadata publishRaw(String topic, String key, byte[] value, Map<String, String> headers) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, key, value);
        headers.forEach((name, text) -> record.headers().add(name, text.getBytes(StandardCharsets.UTF_8)));
        List<Future<RecordMetadata>> sends = List.of(producer().send(record));
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
            List<ConsumerRecord<String, byte[]>> records = records(topic);
            if (records.size() >= count) {
                return records;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        topic + " holds " + records.size() + " records, not " + count + ", after " + timeout);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** Every payment event currently in {@code topic} (all partitions, committed records only). */
    public List<PaymentEvent> events(String topic) {
        List<PaymentEvent> events = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> record : records(topic)) {
            events.add(PaymentEventCodec.decode(record.value()));
        }
        return events;
    }

    /** Every record currently in {@code topic}, all partitions, from the beginning to the end offsets read first. */
    public List<ConsumerRecord<String, byte[]>> records(String topic) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers(),
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = partitions(topic);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < end.get(partition))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end offsets " + end);
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    /** The committed offset of a consumer group on one partition, or -1 if none. */
    public long committedOffset(String group, TopicPartition partition) {
        OffsetAndMetadata offset = committedOffsets(group).get(partition);
        return offset == null ? -1L : offset.offset();
    }

    /** How many records a consumer group has not committed yet on {@code topic}, over all partitions. */
    public long lag(String group, String topic) {
        Map<TopicPartition, OffsetAndMetadata> committed = committedOffsets(group);
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions(topic).forEach(partition -> latest.put(partition, OffsetSpec.latest()));
        var ends = broker.doWithAdminFunction(
                admin -> get(admin.listOffsets(latest).all(), "the end offsets of " + topic));
        long lag = 0;
        for (TopicPartition partition : partitions(topic)) {
            OffsetAndMetadata offset = committed.get(partition);
            lag += ends.get(partition).offset() - (offset == null ? 0 : offset.offset());
        }
        return lag;
    }

    private Map<TopicPartition, OffsetAndMetadata> committedOffsets(String group) {
        return broker.doWithAdminFunction(admin -> get(
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(),
                "the offsets of group " + group));
    }

    private static <T> T get(Future<T> future, String what) {
        try {
            return future.get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not read " + what, e);
        }
    }

    private static List<TopicPartition> partitions(String topic) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (int partition = 0; partition < Topics.PARTITIONS; partition++) {
            partitions.add(new TopicPartition(topic, partition));
        }
        return partitions;
    }

    private synchronized KafkaProducer<String, byte[]> producer() {
        if (producer == null) {
            producer = new KafkaProducer<>(
                    Map.of(
                            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            bootstrapServers(),
                            ProducerConfig.ACKS_CONFIG,
                            "all",
                            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                            true,
                            // One request in flight: on a just-created topic, a first batch refused (no leader yet)
                            // while
                            // the next ones are appended leaves the broker expecting later sequences, and the retried
                            // first batch fails with OUT_OF_ORDER_SEQUENCE_NUMBER until the timeout.
                            ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
                            1,
                            ProducerConfig.LINGER_MS_CONFIG,
                            5),
                    new StringSerializer(),
                    new ByteArraySerializer());
        }
        return producer;
    }

    private static void await(List<Future<RecordMetadata>> sends) {
        for (Future<RecordMetadata> send : sends) {
            try {
                send.get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException | ExecutionException | TimeoutException e) {
                throw new IllegalStateException("test producer could not publish", e);
            }
        }
    }

    @Override
    public synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
        broker.destroy();
    }
}
