package io.pagora.payments.api.adapter.kafka;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.events.Topics;
import io.pagora.kernel.Check;
import io.pagora.payments.api.application.intake.Admission;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Clearing's lag on the requests topic — how many accepted payments clearing has not yet taken — measured
 * every {@code refreshInterval} with two admin requests (the group's committed offsets, the partitions'
 * end offsets), each with a deadline. Requests never wait for it: they read the last measure. A measure
 * older than three intervals, or a group that never committed, is {@link Admission#LAG_UNKNOWN}.
 */
public final class KafkaClearingLag implements LongSupplier, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaClearingLag.class);

    private final Admin admin;
    private final String clearingGroupId;
    private final Duration refreshInterval;
    private final ScheduledExecutorService timer;
    private volatile long lagRecords = Admission.LAG_UNKNOWN;
    private volatile long measuredAtNanos;

    public KafkaClearingLag(Admin admin, String clearingGroupId, Duration refreshInterval, MeterRegistry meters) {
        Check.that(
                refreshInterval.toMillis() >= 100 && refreshInterval.toSeconds() <= 60,
                "lag refresh interval in 100ms..60s: %s",
                refreshInterval);
        this.admin = admin;
        this.clearingGroupId = clearingGroupId;
        this.refreshInterval = refreshInterval;
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "clearing-lag");
            thread.setDaemon(true);
            return thread;
        });
        Gauge.builder("pagora.payments.clearing.lag", this, KafkaClearingLag::getAsLong)
                .description(
                        "Payments accepted but not yet taken by clearing (-1: unknown); admission control's signal")
                .register(meters);
        timer.scheduleWithFixedDelay(this::measure, 0, refreshInterval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public long getAsLong() {
        boolean fresh = System.nanoTime() - measuredAtNanos < 3 * refreshInterval.toNanos();
        return fresh ? lagRecords : Admission.LAG_UNKNOWN;
    }

    private void measure() {
        long deadlineMs = Math.max(100, refreshInterval.toMillis());
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(clearingGroupId)
                    .partitionsToOffsetAndMetadata()
                    .get(deadlineMs, TimeUnit.MILLISECONDS);
            Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
            committed.forEach((partition, offset) -> {
                if (offset != null && partition.topic().equals(Topics.PAYMENTS_REQUESTED)) {
                    ends.put(partition, OffsetSpec.latest());
                }
            });
            if (ends.isEmpty()) {
                lagRecords = Admission.LAG_UNKNOWN;
                measuredAtNanos = System.nanoTime();
                return;
            }
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> latest =
                    admin.listOffsets(ends).all().get(deadlineMs, TimeUnit.MILLISECONDS);
            long lag = 0;
            for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end : latest.entrySet()) {
                lag += Math.max(
                        0, end.getValue().offset() - committed.get(end.getKey()).offset());
            }
            lagRecords = lag;
            measuredAtNanos = System.nanoTime();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // Left to go stale: an unmeasurable lag is unknown, and unknown never refuses a payment.
            log.debug("clearing lag not measured: {}", e.toString());
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        admin.close(Duration.ofSeconds(2));
    }
}
