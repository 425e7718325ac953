package io.pagora.service.ledger;

import io.pagora.ledger.domain.Ledger;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.util.List;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The ledger's health, for the services that cannot work without it (payment-api, clearing): UP when the ledger
 * answers a lookup (of the central bank account), DOWN when it does not.
 *
 * <p>A missing central bank is UP with detail {@code centralBank: missing}, not OUT_OF_SERVICE: this indicator
 * says whether the service can reach the ledger, and only payment-api opens the central bank (at startup, which
 * fails if it cannot). OUT_OF_SERVICE would make clearing's health depend on another service's start order, and
 * get a healthy instance taken out of service (or restarted) for a state no restart of it can change.
 * Reporting does not import this: its queries do not need the ledger.
 */
@Configuration(proxyBeanMethods = false)
public class LedgerHealthConfiguration {

    @Bean
    public HealthIndicator ledgerHealthIndicator(Ledger ledger) {
        return () -> {
            try {
                boolean found = !ledger.lookupAccounts(List.of(ChartOfAccounts.centralBank())).isEmpty();
                return Health.up()
                        .withDetail("backend", ledger.backendName())
                        .withDetail("centralBank", found ? "present" : "missing")
                        .build();
            } catch (RuntimeException e) {
                return Health.down()
                        .withDetail("backend", ledger.backendName())
                        .withDetail("error", e.getClass().getSimpleName())
                        .build();
            }
        };
    }
}
