package io.pagora.reporting.testsupport;

import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.Topics;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes events as the other services do: a real idempotent KafkaProducer, key = the payer's account
 * id (a String), value = {@link PaymentEventCodec} bytes, requests and outcomes on their own topics.
 */
public final class EventPublisher implements AutoCloseable {

    private final KafkaProducer<String, byte[]> producer;

    public EventPublisher(String bootstrapServers) {
        producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
                5,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                30_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                10_000,
                ProducerConfig.LINGER_MS_CONFIG,
                5,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class));
    }

    public static String topicOf(PaymentEvent event) {
        return event instanceof PaymentOutcome ? Topics.PAYMENT_OUTCOMES : Topics.PAYMENTS_REQUESTED;
    }

    /** Sends the events in order and waits until the broker acknowledged all of them. */
    public void publish(PaymentEvent... events) {
        Future<?>[] sent = new Future<?>[events.length];
        for (int i = 0; i < events.length; i++) {
            sent[i] = producer.send(
                    new ProducerRecord<>(topicOf(events[i]), events[i].key(), PaymentEventCodec.encode(events[i])));
        }
        await(sent);
    }

    /** Sends raw bytes (garbage, or JSON that breaks the rules) to a topic. */
    public RecordMetadata publishRaw(String topic, String key, byte[] value) {
        Future<RecordMetadata> sent = producer.send(new ProducerRecord<>(topic, key, value));
        await(sent);
        try {
            return sent.get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void await(Future<?>... sent) {
        try {
            for (Future<?> future : sent) {
                future.get(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("publishing failed", e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
