package io.pagora.payments.api.testsupport;

import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentRequested;
import io.pagora.events.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads {@link Topics#PAYMENTS_REQUESTED} with a plain KafkaConsumer (read_committed, no group), decoding
 * with {@link PaymentEventCodec}. Because payment-api answers only after the broker acknowledged,
 * everything a request published is below the end offsets read right after its response: "nothing was
 * published" is checked exactly, without waiting.
 */
public final class RequestedEvents implements AutoCloseable {

    /** One record as consumed. */
    public record Event(String key, PaymentRequested payment, int partition) {}

    private final KafkaConsumer<String, byte[]> consumer;
    private final List<TopicPartition> partitions = new ArrayList<>();

    public RequestedEvents(String bootstrapServers) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        consumer = new KafkaConsumer<>(config);
        consumer.partitionsFor(Topics.PAYMENTS_REQUESTED, Duration.ofSeconds(10))
                .forEach(info -> partitions.add(new TopicPartition(info.topic(), info.partition())));
        consumer.assign(partitions);
    }

    public int partitionCount() {
        return partitions.size();
    }

    /** The end of every partition now. */
    public Map<TopicPartition, Long> mark() {
        return new HashMap<>(consumer.endOffsets(partitions, Duration.ofSeconds(10)));
    }

    /** Every record appended since {@code mark}, decoded. */
    public List<Event> since(Map<TopicPartition, Long> mark) {
        Map<TopicPartition, Long> end = mark();
        List<Event> events = new ArrayList<>();
        for (TopicPartition partition : partitions) {
            consumer.seek(partition, mark.getOrDefault(partition, 0L));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!reached(end)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("could not read up to " + end);
            }
            for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                if (record.offset() < end.get(new TopicPartition(record.topic(), record.partition()))) {
                    events.add(new Event(
                            record.key(),
                            (PaymentRequested) PaymentEventCodec.decode(record.value()),
                            record.partition()));
                }
            }
        }
        return events;
    }

    private boolean reached(Map<TopicPartition, Long> end) {
        for (TopicPartition partition : partitions) {
            if (consumer.position(partition) < end.get(partition)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
