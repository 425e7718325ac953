package io.pagora.payments.api.config;

import io.pagora.kernel.Check;
import io.pagora.payments.api.adapter.jdbc.JdbcIdempotencyPartitions;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How long idempotency keys are kept ({@code pagora.payments.idempotency.*}). A key claimed on day D (UTC) is a
 * replay until at least D + retentionDays; its partition is dropped in the first maintenance round after that,
 * and from then on the same key names a new payment.
 *
 * @param retentionDays whole days a key is kept after the day it was claimed
 * @param partitionsAheadDays days of partitions created ahead of today (maintenance may fail that long)
 * @param maintenanceInterval how often partitions are created and dropped
 */
@ConfigurationProperties("pagora.payments.idempotency")
public record IdempotencyRetentionProperties(
        @DefaultValue("7") int retentionDays,
        @DefaultValue("3") int partitionsAheadDays,
        @DefaultValue("1h") Duration maintenanceInterval) {

    public IdempotencyRetentionProperties {
        Check.that(
                retentionDays >= 1 && retentionDays <= JdbcIdempotencyPartitions.RETENTION_DAYS_MAX,
                "pagora.payments.idempotency.retention-days in 1..%d",
                JdbcIdempotencyPartitions.RETENTION_DAYS_MAX);
        Check.that(
                partitionsAheadDays >= 1 && partitionsAheadDays <= JdbcIdempotencyPartitions.DAYS_AHEAD_MAX,
                "pagora.payments.idempotency.partitions-ahead-days in 1..%d",
                JdbcIdempotencyPartitions.DAYS_AHEAD_MAX);
        Check.that(
                maintenanceInterval.toSeconds() >= 1 && maintenanceInterval.toHours() <= 24,
                "pagora.payments.idempotency.maintenance-interval in 1s..24h");
    }
}
