package io.pagora.reporting.reconciliation.adapter;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.ledger.port.Ledger;
import io.pagora.reporting.ReportingProperties;
import io.pagora.reporting.reconciliation.application.Reconciler;
import io.pagora.service.ledger.LedgerConfiguration;
import java.time.Clock;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * The online reconciliation, when {@code pagora.reporting.reconciliation.enabled=true}. It reads the ledger every
 * Pagora service is configured with ({@code pagora.ledger.*}), through service-support's one ledger bean, imported
 * only here: with the reconciliation off, reporting opens no ledger. It only looks accounts and transfers up, and
 * reads Kafka's offsets and the outcomes topic (never as a member of a consumer group, never committing).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "pagora.reporting.reconciliation.enabled", havingValue = "true")
@Import(LedgerConfiguration.class)
public class ReconciliationConfiguration {

    /** A Kafka admin request (or the read of a balance check's window) that takes longer fails the check's round. */
    private static final Duration PIPELINE_REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /** The lease lasts this many intervals from its last renewal. */
    private static final int LEASE_INTERVALS = 3;
    /** A lease never shorter: a renewal is a database round trip, and the pool may keep it waiting a moment. */
    private static final Duration LEASE_MIN = Duration.ofSeconds(3);

    /** The pipeline's positions, read with the service's own Kafka client settings, for the projection's group. */
    @Bean(destroyMethod = "close")
    KafkaPaymentPipeline paymentPipeline(
            KafkaAdmin kafkaAdmin, ReconciliationProperties properties, ReportingProperties reporting) {
        return new KafkaPaymentPipeline(
                kafkaAdmin.getConfigurationProperties(),
                KafkaPaymentPipeline.clearingStages(properties.clearingGroupId(), properties.clearingExpiryGroupId()),
                reporting.projection().groupId(),
                PIPELINE_REQUEST_TIMEOUT);
    }

    /**
     * One instance at a time runs the rounds, holding the lease in the read model's database (ExpiringLease). It lasts
     * {@link #LEASE_INTERVALS} intervals (at least {@link #LEASE_MIN}) and its holder renews it every interval: a holder
     * gone without a word is replaced within a few intervals, and one missed renewal costs it nothing.
     */
    @Bean
    ReconciliationJob reconciliationJob(
            Ledger ledger,
            JdbcTemplate jdbc,
            KafkaPaymentPipeline pipeline,
            Clock clock,
            ReconciliationProperties properties,
            MeterRegistry meters) {
        Reconciler reconciler =
                new Reconciler(ledger, new JdbcReconciliationReadModel(jdbc), pipeline, clock, properties.settings());
        Duration leaseDuration = properties.interval().multipliedBy(LEASE_INTERVALS);
        RoundLease lease = new ExpiringLease(
                jdbc, ExpiringLease.RECONCILIATION, leaseDuration.compareTo(LEASE_MIN) < 0 ? LEASE_MIN : leaseDuration);
        return new ReconciliationJob(reconciler, lease, clock, properties.interval(), meters);
    }
}
