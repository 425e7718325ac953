package io.pagora.clearing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.testsupport.Books;
import io.pagora.clearing.testsupport.ClearingTestBase;
import io.pagora.clearing.testsupport.Faults;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Id128;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Failure table, row "network partition during Phase 2 post": the post request fails before reaching
 * the ledger, or the ledger applies it and the answer is lost, or the process dies right after the
 * ledger applied it, or after all ledger work but before publishing. Offsets are never committed
 * before the outcomes are published, so the batch runs again (in place, or redelivered after the
 * restart); the deterministic ids make the reservation and the post answer {@code exists}, so each
 * payment settles exactly once and is published as settled.
 */
class CrashDuringPostTest extends ClearingTestBase {

    private static final String PENDING_TIMEOUT = "pagora.clearing.pending-timeout=60s";

    @Test
    void postFailingBeforeAndAfterTheLedgerAppliedItIsRetriedInPlace() {
        faults.ledger(Faults.Phase.POST, Faults.When.BEFORE, Faults.How.UNAVAILABLE, 1)
                .ledger(Faults.Phase.POST, Faults.When.AFTER, Faults.How.UNAVAILABLE, 1);
        List<PaymentRequested> payments = somePayments(1);
        publish(payments);
        startClearing(PENDING_TIMEOUT);

        Map<String, String> states = awaitSettledBooks(payments);
        assertThat(states.values()).containsOnly("SETTLED");
        assertThat(faults.allFired()).isTrue();
        assertThat(faults.ledgerRequests(Faults.Phase.POST))
                .as("failed, applied but lost, then exists")
                .isGreaterThanOrEqualTo(3);
    }

    @Test
    void crashAfterThePostIsAppliedOrBeforePublishingThenRestartPublishesSettledOnce() throws Exception {
        // First batch: the process dies right after the ledger applied the post.
        faults.ledger(Faults.Phase.POST, Faults.When.AFTER, Faults.How.CRASH, 1);
        List<PaymentRequested> first = somePayments(1);
        publish(first);
        ConfigurableApplicationContext app = startClearing(PENDING_TIMEOUT);
        awaitCrashAndClose(app);
        Id128 payer = Id128.parse(first.getFirst().payerAccountId());
        assertThat(Books.balance(ledger, payer))
                .as("the money moved before the crash")
                .isEqualTo(500_00 - 123_45);
        assertThat(outcomes.drain(Duration.ofMillis(300)))
                .as("but nothing was published")
                .isEmpty();

        ConfigurableApplicationContext restarted = startClearing(PENDING_TIMEOUT);
        awaitOutcomes(first);
        assertThat(Books.balance(ledger, payer))
                .as("the redelivery did not move it again")
                .isEqualTo(500_00 - 123_45);

        // Second batch: the process dies after every ledger request, before publishing.
        faults.crashBeforePublishing();
        List<PaymentRequested> second = somePayments(11);
        publish(second);
        awaitCrashAndClose(restarted);
        // The crashed poll may hold only some of the second batch (it was published to a running service).
        assertThat(second)
                .as("the crashed poll's payments settled in the ledger before the crash")
                .anyMatch(payment -> Books.balance(ledger, Id128.parse(payment.payeeAccountId())) > 500_00);

        startClearing(PENDING_TIMEOUT);
        List<PaymentRequested> all = new ArrayList<>(first);
        all.addAll(second);
        Map<String, String> states = awaitSettledBooks(all);
        assertThat(states.values()).containsOnly("SETTLED");
    }

    private List<PaymentRequested> somePayments(long firstCustomer) {
        if (firstCustomer == 1) {
            world.fundReserve(PixWorld.BANK_A, 1_000_000_00).fundReserve(PixWorld.BANK_B, 1_000_000_00);
        }
        List<Id128> atA = world.openCustomers(PixWorld.BANK_A, firstCustomer, 4, 500_00);
        List<Id128> atB = world.openCustomers(PixWorld.BANK_B, firstCustomer, 4, 500_00);
        List<PaymentRequested> payments = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            payments.add(world.payment(atA.get(i), atB.get(i), 123_45));
            payments.add(world.payment(atB.get(i), atB.get((i + 1) % 4), 2_00));
        }
        return payments;
    }
}
