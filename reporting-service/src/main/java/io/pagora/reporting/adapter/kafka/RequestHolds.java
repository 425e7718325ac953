package io.pagora.reporting.adapter.kafka;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.reporting.ReportingProperties;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.stereotype.Component;

/**
 * The projection consumers' {@link RequestHold}s, one per consumer (each used on its consumer's thread only), and the
 * rebalance listener that drops what a consumer held in the partitions it loses.
 */
@Component
public class RequestHolds implements ConsumerAwareRebalanceListener {

    /** Requests held back, waiting for their outcome, across the service's consumers. */
    static final String HELD = "pagora.reporting.requests.held";

    private final long holdNanos;
    private final int heldMax;
    private final Map<Consumer<?, ?>, RequestHold<ConsumerRecord<byte[], byte[]>>> holds = new ConcurrentHashMap<>();

    public RequestHolds(ReportingProperties properties, MeterRegistry registry) {
        ReportingProperties.Projection projection = properties.projection();
        this.holdNanos = projection.requestHold().toNanos();
        this.heldMax = projection.windowRecordsMax();
        Gauge.builder(HELD, this, RequestHolds::heldCount)
                .description("Payment requests held back until their outcome, so each payment is written once")
                .register(registry);
    }

    RequestHold<ConsumerRecord<byte[], byte[]>> of(Consumer<?, ?> consumer) {
        return holds.computeIfAbsent(consumer, unused -> new RequestHold<>(holdNanos, heldMax));
    }

    /** The hold of a consumer that has one, or null. */
    RequestHold<ConsumerRecord<byte[], byte[]>> existing(Consumer<?, ?> consumer) {
        return holds.get(consumer);
    }

    @Override
    public void onPartitionsRevokedBeforeCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        RequestHold<ConsumerRecord<byte[], byte[]>> hold = holds.get(consumer);
        if (hold != null) {
            hold.revoked(partitions);
        }
    }

    @Override
    public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        onPartitionsRevokedBeforeCommit(consumer, partitions);
    }

    private double heldCount() {
        return holds.values().stream().mapToInt(RequestHold::heldCount).sum();
    }
}
