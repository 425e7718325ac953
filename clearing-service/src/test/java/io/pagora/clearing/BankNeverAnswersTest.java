package io.pagora.clearing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.adapter.kafka.KafkaUnansweredPayments;
import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.testsupport.ClearingTestBase;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentRequested;
import io.pagora.events.Topics;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Failure table, row "Bank B timeout (never responds)": the receiving bank never answers, so clearing
 * neither posts nor voids; the payments are parked on the clearing-internal unanswered topic, and the
 * expiry worker resolves them once their pending chains timed out: they expire, and nothing moved.
 * The worker is stopped (the application closed) while it waits for the deadline, and after the
 * restart the parked payments are redelivered and expire then. A parked payment that an earlier
 * attempt had already posted is reported settled, as the ledger says — never expired.
 */
class BankNeverAnswersTest extends ClearingTestBase {

    @Test
    void unansweredPaymentsExpireAfterTheirTimeoutAndNothingMoves() throws Exception {
        PixWorld.Pairs customers = world.customerPairs(3, 300_00);
        List<Id128> atA = customers.atA();
        List<Id128> atB = customers.atB();
        List<PaymentRequested> unanswered = world.interbankThenOnUs(customers, 250_00, atB, 40_00);
        String[] silentBank = {
            "pagora.clearing.bank.accept-rate=0",
            "pagora.clearing.bank.no-answer-rate=1",
            "pagora.clearing.pending-timeout=3s"
        };
        publish(unanswered);
        ConfigurableApplicationContext app = startClearing(silentBank);

        // Parked, with the payers' money reserved but not moved.
        kafka.awaitRecords(Topics.CLEARING_UNANSWERED, unanswered.size(), Duration.ofSeconds(30));
        List<Account> payers = ledger.lookupAccounts(List.of(atA.get(0), atB.get(0)));
        assertThat(payers).allMatch(account -> account.debitsPending() > 0 && account.debitsPosted() == 0);
        // Stop while the expiry worker waits for the deadline: it must neither block the shutdown nor lose them.
        long closing = System.nanoTime();
        app.close();
        assertThat(Duration.ofNanos(System.nanoTime() - closing))
                .as("shutdown does not wait for the deadline")
                .isLessThan(Duration.ofSeconds(10));
        assertThat(outcomes.drain(Duration.ofMillis(200)))
                .as("nothing resolved before the timeout")
                .isEmpty();

        // A payment that an earlier attempt posted, parked as if a redelivery had not been answered.
        PaymentRequested postedEarlier = world.payment(atA.get(0), atA.get(1), 10_00);
        Settlement settlement = new Settlement(ledger, 60);
        assertThat(settlement.reserve(List.of(ClearingRequest.toPayment(postedEarlier))))
                .containsExactly(new ReservationOutcome.Reserved());
        assertThat(settlement.post(List.of(ClearingRequest.toPayment(postedEarlier))))
                .containsExactly(new ResolutionOutcome.Posted());
        kafka.publishRaw(
                Topics.CLEARING_UNANSWERED,
                postedEarlier.key(),
                PaymentEventCodec.encode(postedEarlier),
                Map.of(KafkaUnansweredPayments.DEADLINE_HEADER, Instant.now().toString()));

        startClearing(silentBank); // the restart: the parked payments are redelivered to the expiry worker
        List<PaymentRequested> all = new ArrayList<>(unanswered);
        all.add(postedEarlier);
        Map<String, String> states = awaitSettledBooks(all);

        for (PaymentRequested payment : unanswered) {
            assertThat(states.get(payment.paymentId()))
                    .as("unanswered payment expired")
                    .isEqualTo("EXPIRED");
        }
        assertThat(states.get(postedEarlier.paymentId()))
                .as("the ledger's earlier post wins")
                .isEqualTo("SETTLED");
        assertThat(kafka.records(Topics.PAYMENTS_REQUESTED_DEAD_LETTER)).isEmpty();
    }
}
