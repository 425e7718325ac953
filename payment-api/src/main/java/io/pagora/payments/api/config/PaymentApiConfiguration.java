package io.pagora.payments.api.config;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.events.Topics;
import io.pagora.kernel.Check;
import io.pagora.ledger.port.Ledger;
import io.pagora.payments.api.adapter.jdbc.IdempotencyRetentionJob;
import io.pagora.payments.api.adapter.jdbc.JdbcBankNames;
import io.pagora.payments.api.adapter.jdbc.JdbcIdempotencyKeys;
import io.pagora.payments.api.adapter.jdbc.JdbcIdempotencyPartitions;
import io.pagora.payments.api.adapter.jdbc.JdbcSharedLimitStore;
import io.pagora.payments.api.adapter.kafka.KafkaClearingLag;
import io.pagora.payments.api.adapter.kafka.KafkaPaymentPublisher;
import io.pagora.payments.api.adapter.ledger.LedgerOriginalPayments;
import io.pagora.payments.api.adapter.web.AdministrationController;
import io.pagora.payments.api.adapter.web.AnswerTimingFilter;
import io.pagora.payments.api.adapter.web.ApiExceptionHandler;
import io.pagora.payments.api.adapter.web.BatchResultJsonConverter;
import io.pagora.payments.api.adapter.web.OpenApiController;
import io.pagora.payments.api.adapter.web.OverRateFilter;
import io.pagora.payments.api.adapter.web.PaymentController;
import io.pagora.payments.api.application.administration.ParticipantAdministration;
import io.pagora.payments.api.application.administration.RandomAccountNumbers;
import io.pagora.payments.api.application.directory.payment.PayingByKey;
import io.pagora.payments.api.application.intake.AccountDirectory;
import io.pagora.payments.api.application.intake.Admission;
import io.pagora.payments.api.application.intake.GroupCommit;
import io.pagora.payments.api.application.intake.PayeeKeys;
import io.pagora.payments.api.application.intake.PaymentIntake;
import io.pagora.payments.api.application.limits.LeasedTokenBuckets;
import io.pagora.payments.api.application.limits.LimitLeaser;
import io.pagora.payments.api.application.limits.ParticipantBuckets;
import io.pagora.payments.api.application.limits.ParticipantLimits;
import io.pagora.payments.api.application.limits.ParticipantTokenBuckets;
import io.pagora.payments.api.application.limits.UnknownAccountLimit;
import io.pagora.payments.api.application.liquidity.WatchingReserves;
import io.pagora.payments.api.application.returns.Returns;
import io.pagora.payments.api.domain.PaymentRules;
import io.pagora.payments.api.domain.ReturnRules;
import io.pagora.service.config.ServiceDefaults;
import io.pagora.service.config.TopicsProperties;
import io.pagora.service.ledger.LedgerConfiguration;
import io.pagora.service.ledger.LedgerHealthConfiguration;
import io.pagora.service.security.CallerSecurityConfiguration;
import io.pagora.service.web.EdgeProblemsConfiguration;
import io.pagora.service.web.ParticipantConnections;
import io.pagora.settlement.application.AccessRefusals;
import io.pagora.settlement.domain.TimeOrderedIds;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Wires payment-api: the stores, the publisher, the services and the web layer. Every bean
 * is declared here (component scanning covers only this package), so the whole graph reads in one place. The ledger
 * bean and its health come from service-support, as in every service; so does who is calling
 * ({@link CallerSecurityConfiguration}: mutual TLS, and the {@link AccessRefusals} metric the intake and the
 * administration report their refusals to).
 *
 * <p>Over 400 lines on purpose: the wiring of every use case, each bean beside the settings it reads, is the one place
 * to see what payment-api runs with.
 */
@Configuration(proxyBeanMethods = false)
@Import({
    ServiceDefaults.class,
    EdgeProblemsConfiguration.class,
    CallerSecurityConfiguration.class,
    LedgerConfiguration.class,
    LedgerHealthConfiguration.class
})
public class PaymentApiConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    TimeOrderedIds paymentIds(Clock clock) {
        return new TimeOrderedIds(clock);
    }

    @Bean
    AccountDirectory accountDirectory(Ledger ledger, PaymentApiProperties properties, MeterRegistry meters) {
        AccountDirectory directory = new AccountDirectory(ledger, properties.accountCacheSize());
        Gauge.builder("pagora.payments.known.accounts", directory, AccountDirectory::cachedCount)
                .description("customer account ids remembered as existing")
                .register(meters);
        return directory;
    }

    /** One allowance per participant, shared by both intakes: a bank cannot double it by mixing endpoints. */
    @Bean
    UnknownAccountLimit unknownAccountLimit(
            UnknownAccountLimitProperties limit,
            SharedLimitProperties shared,
            LimitLeaser leaser,
            MeterRegistry meters) {
        return new UnknownAccountLimit(participantBuckets(
                "unknown-accounts",
                limit.burst(),
                limit.refillPerSecond(),
                limit.participantsMax(),
                shared,
                leaser,
                "pagora.payments.unknown.account.limit.participants",
                "participants whose unknown-account answers are being counted",
                meters));
    }

    /**
     * The limits' link to the buckets every instance shares, under a name of its own (a random one: a restarted
     * instance is a new one, the old one no longer counted once its heartbeat is older than live-for).
     */
    @Bean(destroyMethod = "close")
    LimitLeaser limitLeaser(JdbcTemplate service, SharedLimitProperties shared, MeterRegistry meters) {
        // The service's template comes after the migrations; the leaser's own has a shorter timeout.
        JdbcTemplate jdbc = new JdbcTemplate(service.getDataSource());
        jdbc.setQueryTimeout(Math.toIntExact(shared.queryTimeout().toSeconds()));
        LimitLeaser leaser = new LimitLeaser(
                new JdbcSharedLimitStore(jdbc),
                UUID.randomUUID(),
                shared.leaseInterval().toMillis(),
                shared.hold().toMillis(),
                shared.heartbeat().toMillis(),
                shared.liveFor().toMillis(),
                shared.failAfter().toMillis(),
                shared.leaseWait().toMillis(),
                System::nanoTime);
        Gauge.builder("pagora.payments.limits.instances", leaser, LimitLeaser::instances)
                .description("live payment-api instances sharing each participant's limits")
                .register(meters);
        Gauge.builder("pagora.payments.limits.fallback", leaser, l -> shared.enabled() && l.stale() ? 1 : 0)
                .description("1 while the shared limits' database is out of reach: each instance admits on its share")
                .register(meters);
        FunctionCounter.builder("pagora.payments.limits.leases", leaser, LimitLeaser::exchanges)
                .description("round trips leasing participants' tokens")
                .register(meters);
        FunctionCounter.builder("pagora.payments.limits.lease.failures", leaser, LimitLeaser::failures)
                .description("lease and heartbeat round trips the database did not answer")
                .register(meters);
        if (shared.enabled()) {
            leaser.start();
        }
        return leaser;
    }

    /** A token bucket per participant (switch-wide unless disabled), its participants tracked as a gauge. */
    private static ParticipantBuckets participantBuckets(
            String name,
            long burst,
            double refillPerSecond,
            int participantsMax,
            SharedLimitProperties shared,
            LimitLeaser leaser,
            String gauge,
            String description,
            MeterRegistry meters) {
        ParticipantBuckets buckets = shared.enabled()
                ? new LeasedTokenBuckets(name, burst, refillPerSecond, participantsMax, leaser, System::nanoTime)
                : new ParticipantTokenBuckets(burst, refillPerSecond, participantsMax, System::nanoTime);
        Gauge.builder(gauge, buckets, ParticipantBuckets::participants)
                .description(description)
                .register(meters);
        return buckets;
    }

    /** Creates idempotency key partitions ahead and drops those past the retention window. */
    @Bean(destroyMethod = "close")
    IdempotencyRetentionJob idempotencyRetention(
            JdbcTemplate jdbc,
            IdempotencyRetentionProperties retention,
            DirectoryProperties directory,
            Clock clock,
            MeterRegistry meters) {
        return new IdempotencyRetentionJob(
                List.of(
                        new JdbcIdempotencyPartitions(jdbc, retention.retentionDays(), retention.partitionsAheadDays()),
                        new JdbcIdempotencyPartitions(
                                jdbc,
                                JdbcIdempotencyPartitions.DIRECTORY_LOOKUPS,
                                directory.lookUpRetentionDays(),
                                retention.partitionsAheadDays())),
                clock,
                retention.maintenanceInterval(),
                meters);
    }

    /** Accepts POST /payments. */
    @Bean
    PaymentIntake paymentIntake(
            PaymentApiProperties properties,
            AccountDirectory accounts,
            JdbcTemplate jdbc,
            KafkaTemplate<String, byte[]> kafka,
            TimeOrderedIds ids,
            Clock clock,
            MeterRegistry meters,
            Admission admission,
            AccessRefusals refusals,
            UnknownAccountLimit unknownAccounts,
            IdempotencyRetentionProperties retention,
            PayingByKey payees) {
        return intake(
                properties,
                accounts,
                jdbc,
                kafka,
                ids,
                clock,
                meters,
                "single",
                admission,
                refusals,
                unknownAccounts,
                retention,
                payees);
    }

    /**
     * Accepts POST /payments/batch: the same service with its own publisher, so Kafka send times are
     * tagged by endpoint without the application layer knowing about endpoints or metrics.
     */
    @Bean
    PaymentIntake batchPaymentIntake(
            PaymentApiProperties properties,
            AccountDirectory accounts,
            JdbcTemplate jdbc,
            KafkaTemplate<String, byte[]> kafka,
            TimeOrderedIds ids,
            Clock clock,
            MeterRegistry meters,
            Admission admission,
            AccessRefusals refusals,
            UnknownAccountLimit unknownAccounts,
            IdempotencyRetentionProperties retention,
            PayingByKey payees) {
        return intake(
                properties,
                accounts,
                jdbc,
                kafka,
                ids,
                clock,
                meters,
                "batch",
                admission,
                refusals,
                unknownAccounts,
                retention,
                payees);
    }

    private static PaymentIntake intake(
            PaymentApiProperties properties,
            AccountDirectory accounts,
            JdbcTemplate jdbc,
            KafkaTemplate<String, byte[]> kafka,
            TimeOrderedIds ids,
            Clock clock,
            MeterRegistry meters,
            String endpoint,
            Admission admission,
            AccessRefusals refusals,
            UnknownAccountLimit unknownAccounts,
            IdempotencyRetentionProperties retention,
            PayeeKeys payees) {
        return new PaymentIntake(
                new PaymentRules(properties.amountMaxCentavos(), retention.retentionDays()),
                accounts,
                new JdbcIdempotencyKeys(jdbc),
                new KafkaPaymentPublisher(kafka, properties.kafkaAckTimeout(), meters, endpoint),
                ids,
                clock,
                admission,
                refusals,
                unknownAccounts,
                payees);
    }

    @Bean(destroyMethod = "close")
    KafkaClearingLag clearingLag(KafkaAdmin kafkaAdmin, PaymentApiProperties properties, MeterRegistry meters) {
        Map<String, Object> config = new HashMap<>(kafkaAdmin.getConfigurationProperties());
        // Each admin request has its own short deadline: a measure that cannot be taken is skipped.
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 4_000);
        return new KafkaClearingLag(
                Admin.create(config),
                properties.admission().clearingGroupId(),
                properties.admission().lagRefreshInterval(),
                meters);
    }

    @Bean
    Admission admission(KafkaClearingLag clearingLag, PaymentApiProperties properties) {
        return new Admission(
                clearingLag,
                properties.admission().clearingLagMax(),
                properties.admission().batchesInFlightMax());
    }

    @Bean
    ParticipantAdministration participantAdministration(
            Ledger ledger,
            JdbcTemplate jdbc,
            AccountDirectory accounts,
            PaymentApiProperties properties,
            AccessRefusals refusals,
            Clock clock) {
        return new ParticipantAdministration(
                ledger,
                new RandomAccountNumbers(),
                new JdbcBankNames(jdbc),
                accounts,
                properties.fundingMaxCentavos(),
                refusals,
                new JdbcIdempotencyKeys(jdbc),
                clock);
    }

    /**
     * The producer's safety settings, forced whatever {@code spring.kafka.*} says: every in-sync replica
     * acknowledges, the idempotent producer never duplicates a retried send, and the producer gives up on
     * a record exactly when the API stops waiting for it ({@code delivery.timeout.ms} = kafka-ack-timeout,
     * both counted from the send). A payment is then answered only once its fate is final: acknowledged,
     * or reported as of unknown outcome — never refused while the producer may still deliver it.
     */
    @Bean
    DefaultKafkaProducerFactoryCustomizer paymentProducerSafety(PaymentApiProperties properties) {
        return factory -> {
            // Kafka refuses a delivery timeout below linger + request timeout, but only at the first send:
            // say so at startup instead of answering every payment 503.
            long lingerMs = Long.parseLong(String.valueOf(
                    factory.getConfigurationProperties().getOrDefault(ProducerConfig.LINGER_MS_CONFIG, "5")));
            long requestTimeoutMs = Long.parseLong(String.valueOf(factory.getConfigurationProperties()
                    .getOrDefault(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "30000")));
            Check.that(
                    properties.kafkaAckTimeout().toMillis() >= lingerMs + requestTimeoutMs,
                    "pagora.payments.kafka-ack-timeout (%s), the producer's delivery timeout, must be at least"
                            + " linger.ms + request.timeout.ms (%d ms)",
                    properties.kafkaAckTimeout(),
                    lingerMs + requestTimeoutMs);
            factory.updateConfigs(Map.of(
                    ProducerConfig.ACKS_CONFIG,
                    "all",
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                    true,
                    ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                    Math.toIntExact(properties.kafkaAckTimeout().toMillis())));
        };
    }

    /**
     * Concurrent POST /payments calls, committed in groups (one SQL statement and one Kafka wait per group), bounded
     * below the server's connections (checked here: the service refuses to start otherwise).
     */
    @Bean(destroyMethod = "close")
    GroupCommit singlePaymentGroupCommit(
            @Qualifier("paymentIntake") PaymentIntake paymentIntake,
            PaymentApiProperties properties,
            MeterRegistry meters,
            @Value("${server.tomcat.max-connections}") int maxConnections) {
        properties.checkIntakeBelow(maxConnections);
        // A caller waits for its group's SQL statement and Kafka acknowledgements, then a margin.
        GroupCommit groupCommit = new GroupCommit(
                paymentIntake,
                properties.groupCommitThreads(),
                properties.groupCommitBatchMax(),
                properties.groupCommitQueueMax(),
                properties.kafkaAckTimeout().plusSeconds(5));
        Gauge.builder("pagora.payments.group.commit.queued", groupCommit, GroupCommit::queued)
                .description("single payments waiting for their group commit")
                .register(meters);
        return groupCommit;
    }

    /** Per-participant limits of both payment endpoints. */
    @Bean
    ParticipantLimits participantLimits(
            PaymentApiProperties properties, SharedLimitProperties shared, LimitLeaser leaser, MeterRegistry meters) {
        PaymentApiProperties.ParticipantLimitSettings settings = properties.participantLimits();
        return new ParticipantLimits(
                settings.inFlightMax(),
                participantBuckets(
                        "payments",
                        settings.burst(),
                        settings.refillPerSecond(),
                        settings.participantsMax(),
                        shared,
                        leaser,
                        "pagora.payments.participants.tracked",
                        "participants whose payment limits are tracked",
                        meters),
                shared.enabled() ? leaser::instances : () -> 1);
    }

    @Bean
    PaymentController paymentController(
            GroupCommit singlePaymentGroupCommit,
            @Qualifier("batchPaymentIntake") PaymentIntake batchPaymentIntake,
            Admission admission,
            ParticipantLimits participantLimits,
            PaymentApiProperties properties,
            MeterRegistry meters,
            Returns returns) {
        return new PaymentController(
                singlePaymentGroupCommit,
                batchPaymentIntake,
                admission,
                participantLimits,
                properties.bodyMaxBytes(),
                properties.batchBodyMaxBytes(),
                properties.batchItemsMax(),
                properties.statusBaseUrl(),
                meters,
                returns);
    }

    /** Returns are checked against their original in the ledger, then paid through the single-payment intake. */
    @Bean
    Returns returns(
            Ledger ledger,
            JdbcTemplate jdbc,
            ReturnProperties properties,
            Clock clock,
            GroupCommit singlePaymentGroupCommit) {
        return new Returns(
                new LedgerOriginalPayments(ledger),
                new ReturnRules(properties.window()),
                new JdbcIdempotencyKeys(jdbc),
                singlePaymentGroupCommit::accept,
                clock);
    }

    /**
     * After the edge's header checks, before Spring Security: a participant with no token left is refused without
     * Spring Security or Spring MVC, on the single endpoint (the one a flood of requests comes to).
     */
    @Bean
    FilterRegistrationBean<OverRateFilter> overRateFilter(
            ParticipantConnections connections, ParticipantLimits participantLimits, MeterRegistry meters) {
        FilterRegistrationBean<OverRateFilter> registration =
                new FilterRegistrationBean<>(new OverRateFilter(connections, participantLimits, meters));
        registration.addUrlPatterns(OverRateFilter.PATH);
        registration.setOrder(EdgeProblemsConfiguration.EDGE_FILTERS_LAST_ORDER + 2);
        return registration;
    }

    /** First after the edge's header checks, before any limit: each participant's calls, timed and counted by answer. */
    @Bean
    FilterRegistrationBean<AnswerTimingFilter> answerTimingFilter(
            ParticipantConnections connections, MeterRegistry meters) {
        FilterRegistrationBean<AnswerTimingFilter> registration =
                new FilterRegistrationBean<>(new AnswerTimingFilter(connections, meters));
        registration.addUrlPatterns(AnswerTimingFilter.SINGLE_PATH, AnswerTimingFilter.BATCH_PATH);
        registration.setOrder(EdgeProblemsConfiguration.EDGE_FILTERS_LAST_ORDER + 1);
        return registration;
    }

    @Bean
    AdministrationController administrationController(
            ParticipantAdministration administration, WatchingReserves reserves, PaymentApiProperties properties) {
        return new AdministrationController(administration, reserves, properties.bodyMaxBytes());
    }

    @Bean
    ApiExceptionHandler apiExceptionHandler() {
        return new ApiExceptionHandler();
    }

    @Bean
    OpenApiController openApiController() {
        return new OpenApiController();
    }

    /**
     * Spring MVC's JSON converter on the application's mapper, writing the batch's answer by hand. Ordered after Spring
     * Boot's configurer, whose JSON converter it replaces.
     */
    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE)
    WebMvcConfigurer batchResultJson(JsonMapper mapper) {
        return new WebMvcConfigurer() {
            @Override
            public void configureMessageConverters(HttpMessageConverters.ServerBuilder converters) {
                converters.withJsonConverter(new BatchResultJsonConverter(mapper));
            }
        };
    }

    /** The topic payment-api writes, with explicit partitions (not the broker's default). */
    @Bean
    NewTopic paymentsRequestedTopic(TopicsProperties topics) {
        return TopicBuilder.name(Topics.PAYMENTS_REQUESTED)
                .partitions(Topics.PARTITIONS)
                .replicas(topics.durability().replicationFactor())
                .configs(topics.durability().topicConfigs())
                .build();
    }

    /** The central bank account must exist before any reserve can be funded; creating it is idempotent. */
    @Bean
    ApplicationRunner openCentralBank(ParticipantAdministration administration) {
        return arguments -> administration.openCentralBank();
    }
}
