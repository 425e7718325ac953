package io.pagora.payments.api.adapter.jdbc;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.kernel.Check;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link JdbcIdempotencyPartitions#maintain} once at startup (so a service started after a long stop has
 * today's partition before it accepts) and then every {@code interval}, on one thread of its own. A failed round
 * is logged and counted ({@code pagora.payments.idempotency.maintenance{result=failed}}); partitions exist days
 * ahead, so the next rounds have time to succeed before a claim could miss one.
 */
public final class IdempotencyRetentionJob implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyRetentionJob.class);

    private final java.util.List<JdbcIdempotencyPartitions> partitions;
    private final Clock clock;
    private final ScheduledExecutorService scheduler;
    private final Counter succeeded;
    private final Counter failed;

    public IdempotencyRetentionJob(
            JdbcIdempotencyPartitions partitions, Clock clock, Duration interval, MeterRegistry meters) {
        this(java.util.List.of(partitions), clock, interval, meters);
    }

    /** Keeps every table of {@code partitions}, one after the other, each round. */
    public IdempotencyRetentionJob(
            java.util.List<JdbcIdempotencyPartitions> partitions,
            Clock clock,
            Duration interval,
            MeterRegistry meters) {
        Check.that(
                interval.toSeconds() >= 1 && interval.toHours() <= 24, "maintenance interval in 1s..24h: %s", interval);
        this.partitions = partitions;
        this.clock = clock;
        this.succeeded = counter(meters, "ok");
        this.failed = counter(meters, "failed");
        this.scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("idempotency-retention").daemon(true).factory());
        runOnce();
        scheduler.scheduleWithFixedDelay(this::runOnce, interval.toSeconds(), interval.toSeconds(), TimeUnit.SECONDS);
    }

    private static Counter counter(MeterRegistry meters, String result) {
        return Counter.builder("pagora.payments.idempotency.maintenance")
                .description(
                        "rounds of the idempotency keys' partition maintenance (create ahead, drop past the window)")
                .tag("result", result)
                .register(meters);
    }

    private void runOnce() {
        try {
            LocalDate today = LocalDate.now(clock.withZone(ZoneOffset.UTC));
            for (JdbcIdempotencyPartitions table : partitions) {
                table.maintain(today);
            }
            succeeded.increment();
        } catch (RuntimeException e) {
            failed.increment();
            log.warn("idempotency keys: partition maintenance failed (retried in the next round): {}", e.toString());
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
