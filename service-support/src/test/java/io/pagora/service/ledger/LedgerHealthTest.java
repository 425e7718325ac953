package io.pagora.service.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.ForwardingLedger;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.LedgerUnavailableException;
import io.pagora.settlement.application.Participants;
import io.pagora.testing.ledger.ReferenceLedger;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * The ledger's health as every service reports it: DOWN when the ledger does not answer; with the central
 * bank missing, OUT_OF_SERVICE only where the service requires it (payment-api), UP elsewhere.
 */
class LedgerHealthTest {

    private final Ledger ledger = ReferenceLedger.onWallClock();

    @Test
    void aMissingCentralBankTakesOutOfServiceOnlyTheServiceThatRequiresIt() {
        assertThat(health(ledger, true).getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
        Health elsewhere = health(ledger, false);
        assertThat(elsewhere.getStatus()).isEqualTo(Status.UP);
        assertThat(elsewhere.getDetails()).containsEntry("centralBank", "missing");
    }

    @Test
    void anOpenCentralBankIsUpEverywhere() {
        assertThat(new Participants(ledger).openCentralBank()).isEqualTo(AccountResult.OK);
        for (boolean required : new boolean[] {true, false}) {
            Health health = health(ledger, required);
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("centralBank", "present");
        }
    }

    @Test
    void aLedgerThatDoesNotAnswerIsDown() {
        Ledger unreachable = new ForwardingLedger(ledger) {
            @Override
            public List<Account> lookupAccounts(List<Id128> ids) {
                throw new LedgerUnavailableException("no answer");
            }
        };
        assertThat(health(unreachable, false).getStatus()).isEqualTo(Status.DOWN);
    }

    private static Health health(Ledger ledger, boolean centralBankRequired) {
        return new LedgerHealthConfiguration()
                .ledgerHealthIndicator(ledger, centralBankRequired)
                .health();
    }
}
