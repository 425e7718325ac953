package io.pagora.clearing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.testsupport.Books;
import io.pagora.clearing.testsupport.ClearingTestBase;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRejected;
import io.pagora.events.PaymentRequested;
import io.pagora.events.RejectionReason;
import io.pagora.kernel.Id128;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Failure table, row "User A balance insufficient" (and its bank-reserve twin): the reservation is
 * refused by the ledger's limits, the payment is rejected with the ledger code as detail, and nothing
 * is ever charged. When the same payment comes again — a duplicate record, then a redelivery after a
 * crash that happened before the rejection was published — it is rejected again, safely
 * ({@code PREVIOUSLY_FAILED}: the ledger refuses the burned ids for good), even though the payer has
 * been funded meanwhile. Good payments in the same polls settle.
 */
class InsufficientBalanceTest extends ClearingTestBase {

    @Test
    void refusedReservationsAreRejectedNeverChargedAndStayRejectedOnRedelivery() throws Exception {
        world.fundReserve(PixWorld.BANK_A, 1_000_000_00).fundReserve(PixWorld.BANK_B, 10_00);
        List<Id128> atA = world.openCustomers(PixWorld.BANK_A, 1, 3, 50_00);
        List<Id128> atB = world.openCustomers(PixWorld.BANK_B, 1, 2, 1_000_00);
        Id128 alice = atA.get(0);
        Id128 broke = world.openCustomers(PixWorld.BANK_A, 10, 1, 0).getFirst();
        PaymentRequested aliceOverdraws = world.payment(alice, atB.get(0), 100_00); // has 50
        PaymentRequested brokeOnUs = world.payment(broke, atA.get(1), 1_00); // has 0
        PaymentRequested reserveTooSmall = world.payment(atB.get(1), atA.get(2), 500_00); // bank B holds 10
        PaymentRequested good = world.payment(atA.get(1), atB.get(0), 20_00);
        List<PaymentRequested> refused = List.of(aliceOverdraws, brokeOnUs, reserveTooSmall);

        // First delivery: refused by the ledger's limits.
        publish(List.of(aliceOverdraws, brokeOnUs, reserveTooSmall, good));
        ConfigurableApplicationContext app = startClearing();
        List<PaymentOutcome> firstOutcomes = awaitOutcomes(List.of(aliceOverdraws, brokeOnUs, reserveTooSmall, good));
        assertThat(rejection(firstOutcomes, aliceOverdraws))
                .isEqualTo(Set.of(RejectionReason.INSUFFICIENT_FUNDS + "/EXCEEDS_CREDITS"));
        assertThat(rejection(firstOutcomes, brokeOnUs))
                .isEqualTo(Set.of(RejectionReason.INSUFFICIENT_FUNDS + "/EXCEEDS_CREDITS"));
        assertThat(rejection(firstOutcomes, reserveTooSmall))
                .isEqualTo(Set.of(RejectionReason.INSUFFICIENT_RESERVE + "/EXCEEDS_CREDITS"));
        assertThat(Books.balance(ledger, alice)).as("never charged").isEqualTo(50_00);

        // The payers get the money now; the same payments come again, and the process dies before publishing.
        world.fundCustomer(alice, 1_000_00);
        world.fundCustomer(broke, 1_000_00);
        world.fundReserve(PixWorld.BANK_B, 10_000_00);
        faults.crashBeforePublishing();
        publish(refused);
        awaitCrashAndClose(app);

        startClearing(); // redelivered
        List<PaymentOutcome> all = awaitOutcomesCount(refused, 2);
        for (PaymentRequested payment : refused) {
            assertThat(rejection(all, payment))
                    .as("rejected again, safely: %s", payment)
                    .contains(RejectionReason.PREVIOUSLY_FAILED + "/ID_ALREADY_FAILED");
        }
        assertThat(Books.balance(ledger, alice))
                .as("never charged, though funded meanwhile")
                .isEqualTo(1_050_00);

        Map<String, String> states = awaitSettledBooks(List.of(aliceOverdraws, brokeOnUs, reserveTooSmall, good));
        assertThat(states)
                .containsEntry(good.paymentId(), "SETTLED")
                .containsEntry(aliceOverdraws.paymentId(), "REJECTED")
                .containsEntry(brokeOnUs.paymentId(), "REJECTED")
                .containsEntry(reserveTooSmall.paymentId(), "REJECTED");
    }

    /** Waits until each payment has at least {@code count} outcomes. */
    private List<PaymentOutcome> awaitOutcomesCount(List<PaymentRequested> payments, int count) {
        long deadline = System.nanoTime() + OUTCOMES_TIMEOUT.toNanos();
        while (true) {
            List<PaymentOutcome> all = outcomes.drain(Duration.ofMillis(200));
            Map<String, Long> counts =
                    all.stream().collect(Collectors.groupingBy(PaymentOutcome::paymentId, Collectors.counting()));
            if (payments.stream().allMatch(payment -> counts.getOrDefault(payment.paymentId(), 0L) >= count)) {
                return all;
            }
            assertThat(System.nanoTime())
                    .as("every payment has %d outcomes in time", count)
                    .isLessThan(deadline);
        }
    }

    /** "REASON/detail" of every rejection published for the payment. */
    private static Set<String> rejection(List<PaymentOutcome> outcomes, PaymentRequested payment) {
        return outcomes.stream()
                .filter(outcome -> outcome.paymentId().equals(payment.paymentId()))
                .map(outcome -> outcome instanceof PaymentRejected rejected
                        ? rejected.reason() + "/" + rejected.detail()
                        : outcome.status())
                .collect(Collectors.toSet());
    }
}
