package io.pagora.service.ledger;

import io.pagora.ledger.port.Ledger;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The ledger's health, for the services that cannot work without it (payment-api, clearing): DOWN when the
 * ledger does not answer a lookup (of the central bank account), UP when it does.
 *
 * <p>A missing central bank is a matter of the service that needs it: with
 * {@code pagora.ledger.central-bank-required=true} (payment-api, which opens it at startup and funds reserves
 * from it) the service is OUT_OF_SERVICE until it exists, so a launcher or orchestrator waiting for health
 * never sends work before it can be served. Elsewhere (the default: clearing never touches it) it is UP with
 * detail {@code centralBank: missing}, so one service's health does not depend on another's start order.
 * Reporting does not import this: its queries do not need the ledger.
 */
@Configuration(proxyBeanMethods = false)
public class LedgerHealthConfiguration {

    @Bean
    public HealthIndicator ledgerHealthIndicator(
            Ledger ledger, @Value("${pagora.ledger.central-bank-required:false}") boolean centralBankRequired) {
        return () -> {
            try {
                boolean found = !ledger.lookupAccounts(List.of(ChartOfAccounts.centralBank()))
                        .isEmpty();
                return (found || !centralBankRequired ? Health.up() : Health.outOfService())
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
