package io.pagora.payments.api.config;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.ledger.port.Ledger;
import io.pagora.payments.api.adapter.jdbc.JdbcReportStore;
import io.pagora.payments.api.adapter.kafka.KafkaBankStreams;
import io.pagora.payments.api.adapter.kafka.KafkaPaymentPublisher;
import io.pagora.payments.api.adapter.kafka.KafkaReportNotices;
import io.pagora.payments.api.adapter.ledger.LedgerOriginalPayments;
import io.pagora.payments.api.adapter.web.ReportController;
import io.pagora.payments.api.application.med.AnalysingReports;
import io.pagora.payments.api.application.med.FilingReports;
import io.pagora.payments.api.application.med.ReadingReports;
import io.pagora.payments.api.application.med.RefundingReports;
import io.pagora.settlement.application.HoldingFunds;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaTemplate;

/** MED's wiring (docs/med.md): infraction reports, their holds in the ledger, and the deadline's escalation. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(MedProperties.class)
public class MedConfiguration {

    private static final Logger log = LoggerFactory.getLogger(MedConfiguration.class);

    /** A filing still unfinished after this was cut short: a normal one takes well under a second. */
    static final java.time.Duration FILING_CUT_SHORT = java.time.Duration.ofSeconds(30);

    /**
     * A refund still REFUNDING after this was cut short: a normal one takes well under a second, and its returns are
     * reserved in the ledger for {@code pagora.med.refund-timeout}, which its publication must beat.
     */
    static final java.time.Duration REFUND_CUT_SHORT = java.time.Duration.ofSeconds(5);

    @Bean
    JdbcReportStore reportStore(JdbcTemplate jdbc) {
        return new JdbcReportStore(jdbc);
    }

    @Bean
    KafkaReportNotices reportNotices(KafkaTemplate<String, byte[]> kafka, PaymentApiProperties payments, Clock clock) {
        return new KafkaReportNotices(new KafkaBankStreams(kafka, payments.kafkaAckTimeout()), clock);
    }

    @Bean
    AnalysingReports analysingReports(JdbcReportStore store, KafkaReportNotices notices, Ledger ledger, Clock clock) {
        return new AnalysingReports(store, notices, new HoldingFunds(ledger), clock);
    }

    @Bean
    FilingReports filingReports(
            JdbcReportStore store, KafkaReportNotices notices, Ledger ledger, MedProperties properties, Clock clock) {
        return new FilingReports(
                new LedgerOriginalPayments(ledger),
                store,
                notices,
                new HoldingFunds(ledger),
                properties.policy(),
                clock);
    }

    @Bean
    RefundingReports refundingReports(
            JdbcReportStore store,
            KafkaReportNotices notices,
            Ledger ledger,
            KafkaTemplate<String, byte[]> kafka,
            PaymentApiProperties payments,
            MeterRegistry meters,
            MedProperties properties,
            Clock clock) {
        return new RefundingReports(
                new LedgerOriginalPayments(ledger),
                store,
                notices,
                new HoldingFunds(ledger),
                new KafkaPaymentPublisher(kafka, payments.kafkaAckTimeout(), meters, "med-refund"),
                properties.refundTimeout(),
                clock);
    }

    @Bean
    ReportController reportController(
            FilingReports filing,
            JdbcReportStore store,
            AnalysingReports analysing,
            RefundingReports refunding,
            PaymentApiProperties payments) {
        return new ReportController(filing, analysing, new ReadingReports(store), refunding, payments.bodyMaxBytes());
    }

    /**
     * Escalates reports past their deadline and finishes the filings and refunds cut short (older than {@link #FILING_CUT_SHORT}),
     * on one thread of its own; every instance may, the store decides once.
     */
    @Bean(destroyMethod = "shutdownNow")
    ScheduledExecutorService reportDeadlines(
            AnalysingReports analysing, FilingReports filing, RefundingReports refunding, MedProperties properties) {
        ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("report-deadlines").daemon(true).factory());
        long everyMillis = properties.escalationInterval().toMillis();
        sweeper.scheduleWithFixedDelay(
                () -> {
                    try {
                        int escalated = analysing.escalateDue();
                        if (escalated > 0) {
                            log.info("med: {} reports escalated to the operator past their deadline", escalated);
                        }
                        int finished = filing.finishUnfinished(FILING_CUT_SHORT);
                        if (finished > 0) {
                            log.info("med: {} filings cut short finished", finished);
                        }
                        int refunded = refunding.finishUnfinished(REFUND_CUT_SHORT);
                        if (refunded > 0) {
                            log.info("med: {} refunds cut short finished", refunded);
                        }
                    } catch (RuntimeException e) {
                        log.warn("med: the deadline round failed (retried in the next): {}", e.toString());
                    }
                },
                everyMillis,
                everyMillis,
                TimeUnit.MILLISECONDS);
        return sweeper;
    }
}
