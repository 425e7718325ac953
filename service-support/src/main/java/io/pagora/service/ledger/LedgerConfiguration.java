package io.pagora.service.ledger;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.ledger.adapter.Ledgers;
import io.pagora.ledger.port.Ledger;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The one {@link Ledger} bean of a service, opened from {@link LedgerProperties} ({@code pagora.ledger.*}) and
 * metered ({@link MeteredLedger}): import it where a service needs the ledger, so every service opens it the
 * same way and its own code speaks only to the port. The PostgreSQL ledger migrates its own schema on open.
 * Closed when the context closes (after the web server and the listeners stopped).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(LedgerProperties.class)
public class LedgerConfiguration {

    private static final Logger log = LoggerFactory.getLogger(LedgerConfiguration.class);

    /** The DataSource is asked for only when the backend is PostgreSQL. */
    @Bean(destroyMethod = "close")
    public Ledger ledger(LedgerProperties properties, ObjectProvider<DataSource> dataSource, MeterRegistry meters) {
        Ledger ledger = Ledgers.open(properties.settings(), dataSource::getObject);
        log.info("ledger backend: {}", ledger.backendName());
        return new MeteredLedger(ledger, meters);
    }
}
