package io.pagora.reporting.reconciliation.adapter;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.ledger.adapter.Ledgers;
import io.pagora.ledger.domain.Ledger;
import io.pagora.reporting.reconciliation.application.Reconciler;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;

/** The online reconciliation, when {@code pagora.reporting.reconciliation.enabled=true}. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "pagora.reporting.reconciliation.enabled", havingValue = "true")
public class ReconciliationConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ReconciliationConfiguration.class);

    /** Reconciliation looks accounts and transfers up, one request at a time. */
    private static final int LEDGER_REQUESTS_IN_FLIGHT_MAX = 4;

    /**
     * The ledger every Pagora service is configured with ({@code pagora.ledger.*}: backend, tigerbeetle.addresses,
     * tigerbeetle.cluster-id, request-timeout), read only: the reconciliation only looks accounts and transfers up.
     * The PostgreSQL ledger is schema {@code ledger} of this service's DataSource. Closed on shutdown.
     */
    @Bean(destroyMethod = "close")
    Ledger reconciliationLedger(Environment environment, ObjectProvider<DataSource> dataSource) {
        Ledgers.Settings settings = new Ledgers.Settings(
                environment.getProperty("pagora.ledger.backend", "postgresql"),
                environment.getProperty("pagora.ledger.tigerbeetle.addresses", "127.0.0.1:3000"),
                environment.getProperty("pagora.ledger.tigerbeetle.cluster-id", Long.class, 0L),
                environment.getProperty("pagora.ledger.request-timeout", Duration.class, Duration.ofSeconds(10)),
                LEDGER_REQUESTS_IN_FLIGHT_MAX);
        Ledger ledger = Ledgers.open(settings, dataSource::getObject);
        log.info("online reconciliation: ledger backend {}", ledger.backendName());
        return ledger;
    }

    @Bean
    ReconciliationJob reconciliationJob(Ledger reconciliationLedger, JdbcTemplate jdbc, Clock clock,
            ReconciliationProperties properties, MeterRegistry meters) {
        Reconciler reconciler = new Reconciler(reconciliationLedger, new JdbcReconciliationReadModel(jdbc), clock,
                properties.settings());
        return new ReconciliationJob(reconciler, clock, properties.interval(), meters);
    }
}
