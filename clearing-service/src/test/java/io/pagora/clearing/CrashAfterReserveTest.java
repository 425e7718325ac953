package io.pagora.clearing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.testsupport.ClearingTestBase;
import io.pagora.clearing.testsupport.Faults;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Failure table, rows "engine crashes after Phase 1 creates pending" and "engine crashes after Phase 1,
 * before Phase 2 post": the process dies (a {@code SimulatedCrash}: nothing committed, nothing
 * published) right after the ledger applied the reservations, or while waiting for the receiving bank.
 * The pending chains are in the ledger, the offsets are not committed; on restart the batch is
 * redelivered, the reservation answers {@code exists}, the bank is asked again, and the post completes
 * the settlement — exactly once.
 */
class CrashAfterReserveTest extends ClearingTestBase {

    /** Long enough that the reservations outlive the restart: the point is completing them, not expiry. */
    private static final String PENDING_TIMEOUT = "pagora.clearing.pending-timeout=60s";

    @Test
    void crashRightAfterTheReservationIsAppliedThenRestartCompletesSettlement() throws Exception {
        faults.ledger(Faults.Phase.RESERVE, Faults.When.AFTER, Faults.How.CRASH, 1);
        List<PaymentRequested> payments = somePayments();
        publish(payments); // before starting: one poll holds them all
        ConfigurableApplicationContext app = startClearing(PENDING_TIMEOUT);

        awaitCrashAndClose(app);
        assertReservedButNothingPublished(payments);
        assertThat(faults.bankCalls())
                .as("the crash came before the bank was asked")
                .isZero();

        startClearing(PENDING_TIMEOUT);
        Map<String, String> states = awaitSettledBooks(payments);
        assertThat(states.values()).containsOnly("SETTLED");
        assertThat(faults.ledgerRequests(Faults.Phase.POST))
                .as("posted after the restart")
                .isPositive();
    }

    @Test
    void crashWhileWaitingForTheReceivingBankThenRestartCompletesSettlement() throws Exception {
        faults.crashInBankCall();
        List<PaymentRequested> payments = somePayments();
        publish(payments); // before starting: one poll holds them all
        ConfigurableApplicationContext app = startClearing(PENDING_TIMEOUT);

        awaitCrashAndClose(app);
        assertReservedButNothingPublished(payments);
        assertThat(faults.ledgerRequests(Faults.Phase.POST))
                .as("the crash came before any post")
                .isZero();

        startClearing(PENDING_TIMEOUT);
        Map<String, String> states = awaitSettledBooks(payments);
        assertThat(states.values()).containsOnly("SETTLED");
        assertThat(faults.bankCalls())
                .as("asked before the crash and again after the restart")
                .isGreaterThanOrEqualTo(2);
    }

    private List<PaymentRequested> somePayments() {
        PixWorld.Pairs customers = world.customerPairs(4, 500_00);
        return world.interbankThenOnUs(customers, 123_45, customers.atA(), 1_00);
    }

    /** The crash left every chain reserved (payers' money held, not moved) and published no outcome. */
    private void assertReservedButNothingPublished(List<PaymentRequested> payments) {
        long reservedCentavos = 0;
        for (PaymentRequested payment : payments) {
            reservedCentavos += payment.amountCentavos();
        }
        List<Id128> payers = payments.stream()
                .map(p -> Id128.parse(p.payerAccountId()))
                .distinct()
                .toList();
        long pendingDebits = ledger.lookupAccounts(payers).stream()
                .mapToLong(Account::debitsPending)
                .sum();
        long postedDebits = ledger.lookupAccounts(payers).stream()
                .mapToLong(Account::debitsPosted)
                .sum();
        assertThat(pendingDebits).as("every payment is reserved").isEqualTo(reservedCentavos);
        assertThat(postedDebits).as("nothing moved yet").isZero();
        assertThat(outcomes.drain(Duration.ofMillis(300)))
                .as("nothing published before the crash")
                .isEmpty();
    }
}
