package io.pagora.clearing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.testsupport.Books;
import io.pagora.clearing.testsupport.ClearingTestBase;
import io.pagora.clearing.testsupport.Faults;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.events.PaymentRequested;
import io.pagora.events.Topics;
import io.pagora.kernel.Id128;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Failure table, row "network timeout during Phase 1": the ledger is unreachable while reserving —
 * both before a request reaches it and after it applied one whose answer was lost. The batch is not
 * committed and runs again with the same transfer ids (the ledger answers {@code exists}), more times
 * than the bounded retry budget for bugs: transient ledger failures are retried without limit and
 * never dead-lettered. Every payment settles exactly once.
 */
class LedgerUnavailableDuringReserveTest extends ClearingTestBase {

    @Test
    void reservationsFailingTransientlyAreRetriedUntilEveryPaymentSettlesOnce() {
        world.fundReserve(PixWorld.BANK_A, 1_000_000_00).fundReserve(PixWorld.BANK_B, 1_000_000_00);
        List<Id128> atA = world.openCustomers(PixWorld.BANK_A, 1, 5, 1_000_00);
        List<Id128> atB = world.openCustomers(PixWorld.BANK_B, 1, 5, 1_000_00);
        List<PaymentRequested> payments = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            payments.add(world.payment(atA.get(i), atB.get(i), 100_00 + i)); // interbank
            payments.add(world.payment(atB.get(i), atB.get((i + 1) % 5), 10_00 + i)); // on-us
        }
        publish(payments);
        // Five transient failures: more than pagora.clearing.retry.attempts (2), which bounds only bugs.
        faults.ledger(Faults.Phase.RESERVE, Faults.When.BEFORE, Faults.How.UNAVAILABLE, 3)
                .ledger(Faults.Phase.RESERVE, Faults.When.AFTER, Faults.How.UNAVAILABLE, 2);

        startClearing();
        Map<String, String> states = awaitSettledBooks(payments);

        assertThat(states.values()).as("every payment settled").containsOnly("SETTLED");
        assertThat(faults.allFired()).isTrue();
        assertThat(faults.injected()).isEqualTo(5);
        assertThat(faults.ledgerRequests(Faults.Phase.RESERVE))
                .as("five failed attempts, then success")
                .isGreaterThanOrEqualTo(6);
        assertThat(Books.balance(ledger, atA.getFirst())).isEqualTo(1_000_00 - 100_00);
        assertThat(kafka.records(Topics.PAYMENTS_REQUESTED_DEAD_LETTER))
                .as("a ledger outage dead-letters nothing")
                .isEmpty();
    }
}
