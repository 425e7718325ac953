package io.pagora.clearing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.testsupport.Books;
import io.pagora.clearing.testsupport.ClearingTestBase;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.events.DeadLetterConvention;
import io.pagora.events.PaymentRequested;
import io.pagora.events.Topics;
import io.pagora.kernel.Id128;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * One bad record costs only itself: a payment that makes clearing fail for a non-transient reason (a
 * bug it alone triggers), in a poll of hundreds of valid payments, is the only record dead-lettered;
 * every other payment of the poll settles, and the bad one still reaches a final state (it is parked
 * and expires; nothing moves). Before, the whole poll went to the dead-letter topic after the retries
 * and every payment in it stayed ACCEPTED in the read model while its chain expired.
 */
class OneBadRecordTest extends ClearingTestBase {

    private static final int PAYMENTS = 400;
    private static final long POISON_AMOUNT = 13_13;

    @Test
    void onlyTheBadRecordIsDeadLetteredAndEveryPaymentOfThePollReachesAFinalState() throws Exception {
        world.fundReserve(PixWorld.BANK_A, 100_000_000_00L);
        List<Id128> payers = world.openCustomers(PixWorld.BANK_A, 1, 20, 1_000_00);
        Id128 payee = world.openCustomers(PixWorld.BANK_B, 1, 1, 0).getFirst();
        List<PaymentRequested> payments = new ArrayList<>();
        for (int i = 0; i < PAYMENTS; i++) {
            payments.add(
                    world.payment(payers.get(i % payers.size()), payee, i == PAYMENTS / 2 ? POISON_AMOUNT : 1_00 + i));
        }
        PaymentRequested poison = payments.get(PAYMENTS / 2);
        faults.failBankCallsWithPaymentOf(POISON_AMOUNT);
        publish(payments); // all before clearing starts: they arrive in full polls with the poison inside
        startClearing("pagora.clearing.pending-timeout=5s");

        Map<String, String> states = awaitSettledBooks(payments);

        System.out.println("[OneBadRecordTest] outcomes " + Books.census(states));
        assertThat(states.get(poison.paymentId())).isEqualTo("EXPIRED");
        assertThat(states.values().stream().filter("SETTLED"::equals)).hasSize(PAYMENTS - 1);
        List<ConsumerRecord<String, byte[]>> deadLetters =
                kafka.awaitRecords(Topics.PAYMENTS_REQUESTED_DEAD_LETTER, 1, Duration.ofSeconds(10));
        assertThat(deadLetters).hasSize(1);
        assertThat(new String(deadLetters.getFirst().value(), StandardCharsets.UTF_8))
                .contains(poison.paymentId());
        assertThat(new String(
                        deadLetters
                                .getFirst()
                                .headers()
                                .lastHeader(DeadLetterConvention.REASON_HEADER)
                                .value(),
                        StandardCharsets.UTF_8))
                .contains("simulated bug on a payment of 1313 centavos");
    }
}
