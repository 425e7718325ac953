package io.pagora.reporting;

import io.pagora.reporting.adapter.jdbc.JdbcReadModelQueries;
import io.pagora.reporting.adapter.jdbc.JdbcReadModelWriter;
import io.pagora.reporting.application.Projection;
import io.pagora.reporting.application.ReadModelQueries;
import io.pagora.reporting.application.ReadModelWriter;
import io.pagora.reporting.application.Reports;
import io.pagora.service.security.CallerSecurityConfiguration;
import io.pagora.service.web.EdgeProblemsConfiguration;
import io.pagora.settlement.application.AccessRefusals;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/** Wires the read model's adapters and the projection. */
@Configuration(proxyBeanMethods = false)
@Import({EdgeProblemsConfiguration.class, CallerSecurityConfiguration.class})
public class ReportingConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    ReadModelWriter readModelWriter(
            JdbcTemplate jdbc, PlatformTransactionManager transactionManager, ReportingProperties properties) {
        TransactionTemplate transactions = new TransactionTemplate(transactionManager);
        // The writer's statements rely on READ COMMITTED: each sees what committed before it (see the class).
        transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        transactions.setTimeout(
                (int) Math.max(1, properties.projection().transactionTimeout().toSeconds()));
        transactions.setName("reporting-projection-poll");
        return new JdbcReadModelWriter(jdbc, transactions);
    }

    @Bean
    ReadModelQueries readModelQueries(JdbcTemplate jdbc) {
        return new JdbcReadModelQueries(jdbc);
    }

    @Bean
    Reports reports(ReadModelQueries queries, AccessRefusals refusals) {
        return new Reports(queries, refusals);
    }

    @Bean
    Projection projection(ReadModelWriter writer) {
        return new Projection(writer);
    }
}
