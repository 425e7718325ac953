package io.pagora.reporting.reconciliation.adapter;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.ledger.domain.Ledger;
import io.pagora.reporting.reconciliation.application.Reconciler;
import io.pagora.service.ledger.LedgerConfiguration;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The online reconciliation, when {@code pagora.reporting.reconciliation.enabled=true}. It reads the ledger every
 * Pagora service is configured with ({@code pagora.ledger.*}), through service-support's one ledger bean, imported
 * only here: with the reconciliation off, reporting opens no ledger. It only looks accounts and transfers up.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "pagora.reporting.reconciliation.enabled", havingValue = "true")
@Import(LedgerConfiguration.class)
public class ReconciliationConfiguration {

    @Bean
    ReconciliationJob reconciliationJob(Ledger ledger, JdbcTemplate jdbc, Clock clock,
            ReconciliationProperties properties, MeterRegistry meters) {
        Reconciler reconciler = new Reconciler(ledger, new JdbcReconciliationReadModel(jdbc), clock,
                properties.settings());
        return new ReconciliationJob(reconciler, clock, properties.interval(), meters);
    }
}
