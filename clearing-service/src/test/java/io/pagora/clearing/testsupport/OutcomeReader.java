package io.pagora.clearing.testsupport;

import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRequested;
import io.pagora.events.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads {@link Topics#PAYMENT_OUTCOMES} from the beginning, as reporting would, accumulating every outcome. */
public final class OutcomeReader implements AutoCloseable {

    private final KafkaConsumer<String, byte[]> consumer;
    private final List<PaymentOutcome> outcomes = new ArrayList<>();

    public OutcomeReader(String bootstrapServers) {
        consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                        false),
                new StringDeserializer(),
                new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        for (int partition = 0; partition < Topics.PARTITIONS; partition++) {
            partitions.add(new TopicPartition(Topics.PAYMENT_OUTCOMES, partition));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Polls until every payment has at least one outcome; returns all outcomes read so far. */
    public List<PaymentOutcome> awaitOutcomes(Collection<PaymentRequested> payments, Duration timeout) {
        Set<String> missing = new HashSet<>();
        payments.forEach(payment -> missing.add(payment.paymentId()));
        outcomes.forEach(outcome -> missing.remove(outcome.paymentId()));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!missing.isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(missing.size() + " of " + payments.size() + " payments have no outcome after "
                        + timeout + ", e.g. " + missing.iterator().next());
            }
            for (PaymentOutcome outcome : poll(Duration.ofMillis(200))) {
                missing.remove(outcome.paymentId());
            }
        }
        return List.copyOf(outcomes);
    }

    /** Keeps reading for {@code quiet} (to catch late duplicates); returns all outcomes read so far. */
    public List<PaymentOutcome> drain(Duration quiet) {
        long deadline = System.nanoTime() + quiet.toNanos();
        while (System.nanoTime() < deadline) {
            poll(Duration.ofMillis(100));
        }
        return List.copyOf(outcomes);
    }

    private List<PaymentOutcome> poll(Duration timeout) {
        List<PaymentOutcome> fresh = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> record : consumer.poll(timeout)) {
            PaymentEvent event = PaymentEventCodec.decode(record.value());
            if (!(event instanceof PaymentOutcome outcome)) {
                throw new AssertionError("not an outcome on " + Topics.PAYMENT_OUTCOMES + ": " + event);
            }
            if (!outcome.key().equals(record.key())) {
                throw new AssertionError("outcome keyed by " + record.key() + ", not by its payer: " + outcome);
            }
            fresh.add(outcome);
        }
        outcomes.addAll(fresh);
        return fresh;
    }

    @Override
    public void close() {
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(2)));
    }
}
