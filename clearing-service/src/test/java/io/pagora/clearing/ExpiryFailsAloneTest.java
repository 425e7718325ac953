package io.pagora.clearing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.adapter.kafka.KafkaUnansweredPayments;
import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.testsupport.ClearingTestBase;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.events.DeadLetterConvention;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentRequested;
import io.pagora.events.Topics;
import io.pagora.kernel.Id128;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.VoidCause;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The expiry path never leaves a payment stuck. A parked payment the expiry worker fails on alone (a
 * bug it alone triggers, not an outage) is dead-lettered, as on the requests path, and still reaches
 * its one final state: clearing reads its chain back from the ledger and publishes what the ledger
 * holds — an open (timed-out) or absent chain expired, a chain posted earlier settled, a chain voided
 * earlier for a refusal rejected — and a chain that holds another payment's transfers is an integrity
 * alarm, dead-lettered with the alarm and never reported as a refusal. Before, such a record was only
 * dead-lettered: no outcome, the payment ACCEPTED forever in the read model.
 */
class ExpiryFailsAloneTest extends ClearingTestBase {

    private static final String UNANSWERED_DEAD_LETTER = DeadLetterConvention.topicOf(Topics.CLEARING_UNANSWERED);

    @Test
    void aParkedPaymentTheExpiryPathFailsOnAloneGetsTheOutcomeTheLedgerHolds() throws Exception {
        PixWorld.Pairs customers = world.customerPairs(3, 300_00);
        List<Id128> atA = customers.atA();
        List<PaymentRequested> unanswered = world.interbankThenOnUs(customers, 50_00, customers.atB(), 40_00);
        PaymentRequested open = unanswered.getFirst(); // parked by clearing with its chain reserved: it times out
        publish(unanswered);
        startClearing(
                "pagora.clearing.bank.accept-rate=0",
                "pagora.clearing.bank.no-answer-rate=1",
                "pagora.clearing.pending-timeout=3s");
        kafka.awaitRecords(Topics.CLEARING_UNANSWERED, unanswered.size(), Duration.ofSeconds(30));

        // Parked as if a redelivery had not been answered, each in another state the ledger holds.
        Settlement settlement = new Settlement(ledger, 60);
        PaymentRequested posted = world.payment(atA.get(0), atA.get(1), 10_00);
        assertThat(settlement.reserve(payments(posted))).containsExactly(new ReservationOutcome.Reserved());
        assertThat(settlement.post(payments(posted))).containsExactly(new ResolutionOutcome.Posted());
        PaymentRequested refused = world.payment(atA.get(1), atA.get(2), 11_00);
        assertThat(settlement.reserve(payments(refused))).containsExactly(new ReservationOutcome.Reserved());
        assertThat(settlement.voidAll(payments(refused), VoidCause.RECEIVING_BANK_REFUSED))
                .containsExactly(new ResolutionOutcome.Voided(VoidCause.RECEIVING_BANK_REFUSED));
        PaymentRequested absent = world.payment(atA.get(2), atA.get(0), 12_00); // never reserved
        PaymentRequested impostor = new PaymentRequested(
                posted.paymentId(),
                posted.payerAccountId(),
                posted.payeeAccountId(),
                999_00,
                "BRL",
                "same id, other amount",
                "E2E-impostor",
                Instant.now());
        List<PaymentRequested> poisoned = List.of(open, posted, refused, absent);
        faults.failLedgerRequestsFor(poisoned.stream()
                .map(payment -> PaymentId.parse(payment.paymentId()))
                .toList());
        for (PaymentRequested payment : List.of(posted, refused, absent, impostor)) {
            kafka.publishRaw(
                    Topics.CLEARING_UNANSWERED,
                    payment.key(),
                    PaymentEventCodec.encode(payment),
                    Map.of(
                            KafkaUnansweredPayments.DEADLINE_HEADER,
                            Instant.now().toString()));
        }

        List<PaymentRequested> all = new ArrayList<>(unanswered);
        all.addAll(List.of(posted, refused, absent));
        Map<String, String> states = awaitSettledBooks(all);

        assertThat(states.get(open.paymentId())).as("timed out in the ledger").isEqualTo("EXPIRED");
        assertThat(states.get(posted.paymentId()))
                .as("the ledger's earlier post wins")
                .isEqualTo("SETTLED");
        assertThat(states.get(refused.paymentId()))
                .as("the ledger's earlier refusal wins")
                .isEqualTo("REJECTED");
        assertThat(states.get(absent.paymentId()))
                .as("nothing reserved, nothing moved")
                .isEqualTo("EXPIRED");
        for (PaymentRequested payment : unanswered.subList(1, unanswered.size())) {
            assertThat(states.get(payment.paymentId())).isEqualTo("EXPIRED");
        }
        List<ConsumerRecord<String, byte[]>> letters =
                kafka.awaitRecords(UNANSWERED_DEAD_LETTER, poisoned.size() + 1, Duration.ofSeconds(10));
        assertThat(letters).as("one dead letter per record set aside").hasSize(poisoned.size() + 1);
        Map<String, String> reasons = letters.stream()
                .collect(Collectors.toMap(
                        record -> new String(record.value(), StandardCharsets.UTF_8),
                        record -> new String(
                                record.headers()
                                        .lastHeader(DeadLetterConvention.REASON_HEADER)
                                        .value(),
                                StandardCharsets.UTF_8)));
        assertThat(reasons.entrySet().stream()
                        .filter(letter -> letter.getValue()
                                .startsWith("failed alone after retries: "
                                        + "java.lang.IllegalStateException: simulated bug on payment"))
                        .map(Map.Entry::getKey)
                        .map(value -> PaymentEventCodec.decode(value.getBytes(StandardCharsets.UTF_8)))
                        .map(ExpiryFailsAloneTest::describe)
                        .collect(Collectors.toSet()))
                .isEqualTo(poisoned.stream().map(ExpiryFailsAloneTest::describe).collect(Collectors.toSet()));
        assertThat(reasons.get(new String(PaymentEventCodec.encode(impostor), StandardCharsets.UTF_8)))
                .as("the impostor is an integrity alarm, not a refusal")
                .startsWith("integrity alarm: ")
                .contains("not this payment's");
        assertThat(faults.injected()).as("the poison fired").isGreaterThanOrEqualTo(poisoned.size());
    }

    /**
     * Clearing always writes the deadline header, but a parked payment whose header is missing or
     * unreadable (a foreign writer, a corrupted header) is still a payment: it waits the longest any
     * chain needs (the pending timeout plus the margin) and gets the ledger's outcome. Before, it was
     * dead-lettered and stayed ACCEPTED forever.
     */
    @Test
    void aParkedPaymentWithoutAReadableDeadlineStillGetsTheOutcomeTheLedgerHolds() throws Exception {
        PixWorld.Pairs customers = world.customerPairs(2, 100_00);
        Settlement settlement = new Settlement(ledger, 60);
        PaymentRequested reserved =
                world.payment(customers.atA().get(0), customers.atB().get(0), 20_00);
        assertThat(settlement.reserve(payments(reserved))).containsExactly(new ReservationOutcome.Reserved());
        PaymentRequested posted =
                world.payment(customers.atA().get(1), customers.atB().get(1), 30_00);
        assertThat(settlement.reserve(payments(posted))).containsExactly(new ReservationOutcome.Reserved());
        assertThat(settlement.post(payments(posted))).containsExactly(new ResolutionOutcome.Posted());
        kafka.publishRaw(Topics.CLEARING_UNANSWERED, reserved.key(), PaymentEventCodec.encode(reserved), Map.of());
        kafka.publishRaw(
                Topics.CLEARING_UNANSWERED,
                posted.key(),
                PaymentEventCodec.encode(posted),
                Map.of(KafkaUnansweredPayments.DEADLINE_HEADER, "tomorrow"));
        startClearing();

        Map<String, String> states = awaitSettledBooks(List.of(reserved, posted));

        assertThat(states.get(reserved.paymentId()))
                .as("voided for no answer, nothing moved")
                .isEqualTo("EXPIRED");
        assertThat(states.get(posted.paymentId()))
                .as("the ledger's earlier post wins")
                .isEqualTo("SETTLED");
        assertThat(kafka.records(UNANSWERED_DEAD_LETTER))
                .as("a payment, not a bad record")
                .isEmpty();
    }

    private static String describe(io.pagora.events.PaymentEvent event) {
        PaymentRequested payment = (PaymentRequested) event;
        return payment.paymentId() + " of " + payment.amountCentavos();
    }

    private static List<io.pagora.settlement.domain.Payment> payments(PaymentRequested payment) {
        return List.of(ClearingRequest.toPayment(payment));
    }
}
