package io.pagora.payments.api.config;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.payments.api.adapter.jdbc.JdbcClaimStore;
import io.pagora.payments.api.adapter.jdbc.JdbcKeyStore;
import io.pagora.payments.api.adapter.jdbc.JdbcLookupStore;
import io.pagora.payments.api.adapter.kafka.KafkaBankStreams;
import io.pagora.payments.api.adapter.kafka.KafkaClaimNotices;
import io.pagora.payments.api.adapter.web.ClaimController;
import io.pagora.payments.api.adapter.web.DirectoryController;
import io.pagora.payments.api.adapter.web.LookupController;
import io.pagora.payments.api.application.directory.claims.ClaimingKeys;
import io.pagora.payments.api.application.directory.lookup.LookingUpKeys;
import io.pagora.payments.api.application.directory.lookup.LookupCommit;
import io.pagora.payments.api.application.directory.payment.PayingByKey;
import io.pagora.payments.api.application.directory.registration.RegisteringKeys;
import io.pagora.payments.api.application.intake.AccountDirectory;
import io.pagora.settlement.domain.TimeOrderedIds;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaTemplate;

/** The key directory's wiring: a bounded part of payment-api (docs/ARCHITECTURE.md says why). */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DirectoryProperties.class)
public class DirectoryConfiguration {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(DirectoryConfiguration.class);

    @Bean
    JdbcLookupStore lookupStore(JdbcTemplate jdbc) {
        return new JdbcLookupStore(jdbc);
    }

    @Bean
    RegisteringKeys registeringKeys(JdbcTemplate jdbc, AccountDirectory accounts, Clock clock) {
        return new RegisteringKeys(new JdbcKeyStore(jdbc), accounts, clock, UUID::randomUUID);
    }

    @Bean
    LookingUpKeys lookingUpKeys(JdbcLookupStore store, DirectoryProperties properties, TimeOrderedIds ids) {
        return new LookingUpKeys(store, properties.policy(), ids);
    }

    @Bean(destroyMethod = "close")
    LookupCommit lookupCommit(LookingUpKeys lookingUp, DirectoryProperties properties, MeterRegistry meters) {
        LookupCommit commit = new LookupCommit(
                lookingUp,
                properties.committers(),
                properties.batchMax(),
                properties.queueMax(),
                properties.waitMax(),
                properties.lookupBatchesMax());
        Gauge.builder("pagora.directory.lookups.queued", commit, LookupCommit::queued)
                .description("key look-ups waiting for their batch")
                .register(meters);
        return commit;
    }

    @Bean
    PayingByKey payingByKey(
            JdbcLookupStore store, LookingUpKeys lookingUp, DirectoryProperties properties, Clock clock) {
        return new PayingByKey(store, lookingUp, properties.lookUpValidFor(), clock);
    }

    @Bean
    ClaimingKeys claimingKeys(
            JdbcTemplate jdbc,
            KafkaTemplate<String, byte[]> kafka,
            AccountDirectory accounts,
            Clock clock,
            DirectoryProperties properties,
            PaymentApiProperties payments) {
        return new ClaimingKeys(
                new JdbcClaimStore(jdbc),
                new KafkaClaimNotices(new KafkaBankStreams(kafka, payments.kafkaAckTimeout()), clock),
                accounts,
                clock,
                properties.claimResolutionPeriod(),
                UUID::randomUUID);
    }

    /** Resolves the claims past their deadline, on one thread of its own; every instance may, the store decides once. */
    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService claimDeadlines(ClaimingKeys claims, DirectoryProperties properties) {
        ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("claim-deadlines").daemon(true).factory());
        long everyMillis = properties.claimSweepInterval().toMillis();
        sweeper.scheduleWithFixedDelay(
                () -> {
                    try {
                        claims.resolveDue();
                    } catch (RuntimeException e) {
                        log.warn("claims: the deadline round failed (retried in the next): {}", e.toString());
                    }
                },
                everyMillis,
                everyMillis,
                TimeUnit.MILLISECONDS);
        return sweeper;
    }

    @Bean
    ClaimController claimController(ClaimingKeys claims) {
        return new ClaimController(claims);
    }

    @Bean
    DirectoryController directoryController(RegisteringKeys registering) {
        return new DirectoryController(registering);
    }

    @Bean
    LookupController lookupController(LookupCommit lookups, LookingUpKeys lookingUp, MeterRegistry meters) {
        return new LookupController(lookups, lookingUp, meters);
    }
}
