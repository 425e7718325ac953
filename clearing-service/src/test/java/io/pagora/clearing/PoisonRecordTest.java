package io.pagora.clearing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.adapter.kafka.DeadLetters;
import io.pagora.clearing.testsupport.Books;
import io.pagora.clearing.testsupport.ClearingTestBase;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.events.DeadLetterConvention;
import io.pagora.events.PaymentRequested;
import io.pagora.events.PaymentSettled;
import io.pagora.events.Topics;
import io.pagora.kernel.Id128;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.KafkaHeaders;

/**
 * Poison records never block a partition and are never lost:
 * <ul>
 *   <li>records that are not valid payment requests (garbage bytes, an event of another type, a payer
 *       paying itself, a non-BRL amount) land in {@code pagora.payments.requested.v1.dlt} with the
 *       reason in a header and their original coordinates, and the payments after them on the same
 *       partition settle;
 *   <li>a payment clearing keeps failing on for a non-transient reason (a bug) is tried alone a bounded
 *       number of times, then dead-lettered and parked for expiry, and the partition moves on; it
 *       still reaches a final state (EXPIRED), nothing moves;
 *   <li>a different payment reusing a settled payment's id raises the integrity alarm: it is
 *       dead-lettered with the alarm, gets no outcome (it is not a refusal), and the ledger keeps only
 *       the original.
 * </ul>
 */
class PoisonRecordTest extends ClearingTestBase {

    @Test
    void badRecordsAreDeadLetteredWithTheirReasonAndThePartitionMovesOn() throws Exception {
        world.fundReserve(PixWorld.BANK_A, 1_000_000_00).fundReserve(PixWorld.BANK_B, 1_000_000_00);
        Id128 payer = world.openCustomers(PixWorld.BANK_A, 1, 1, 1_000_00).getFirst();
        Id128 payee = world.openCustomers(PixWorld.BANK_B, 1, 1, 0).getFirst();
        String key = payer.toString(); // one key: one partition, in this order

        PaymentRequested before = world.payment(payer, payee, 1_00);
        PaymentRequested selfPayment = world.payment(payer, payer, 2_00);
        PaymentRequested dollars = withCurrency(world.payment(payer, payee, 3_00), "USD");
        PaymentSettled wrongType =
                new PaymentSettled(before.paymentId(), key, payee.toString(), 1_00, Instant.now(), Instant.now());
        PaymentRequested after1 = world.payment(payer, payee, 4_00);
        PaymentRequested after2 = world.payment(payer, payee, 5_00);

        kafka.publish(Topics.PAYMENTS_REQUESTED, List.of(before));
        RecordMetadata garbage =
                kafka.publishRaw(Topics.PAYMENTS_REQUESTED, key, new byte[] {(byte) 0xFF, 0x00, '{', 'x'});
        kafka.publishRaw(
                Topics.PAYMENTS_REQUESTED,
                key,
                "{\"type\":\"PaymentRefunded\",\"paymentId\":\"1\"}".getBytes(StandardCharsets.UTF_8));
        kafka.publish(Topics.PAYMENTS_REQUESTED, List.of(selfPayment, dollars, wrongType, after1, after2));
        startClearing("pagora.clearing.pending-timeout=1s");

        List<PaymentRequested> good = new ArrayList<>(List.of(before, after1, after2));
        awaitOutcomes(good);
        List<ConsumerRecord<String, byte[]>> deadLetters =
                kafka.awaitRecords(Topics.PAYMENTS_REQUESTED_DEAD_LETTER, 5, Duration.ofSeconds(30));
        assertThat(deadLetters).hasSize(5);
        assertThat(deadLetters).allSatisfy(record -> {
            assertThat(record.partition()).as("dead letter keeps its partition").isEqualTo(garbage.partition());
            assertThat(record.key()).isEqualTo(key);
            assertThat(text(record, DeadLetterConvention.REASON_HEADER)).isNotBlank();
            assertThat(text(record, KafkaHeaders.DLT_ORIGINAL_TOPIC)).isEqualTo(Topics.PAYMENTS_REQUESTED);
        });
        ConsumerRecord<String, byte[]> first = deadLetters.getFirst();
        assertThat(first.value()).as("the original bytes, untouched").containsExactly(0xFF, 0x00, '{', 'x');
        assertThat(ByteBuffer.wrap(first.headers()
                                .lastHeader(KafkaHeaders.DLT_ORIGINAL_OFFSET)
                                .value())
                        .getLong())
                .isEqualTo(garbage.offset());
        List<String> reasons = deadLetters.stream()
                .map(record -> text(record, DeadLetterConvention.REASON_HEADER))
                .toList();
        assertThat(reasons.get(0)).startsWith("undecodable");
        assertThat(reasons.get(1)).startsWith("undecodable");
        assertThat(reasons.get(2)).contains("payer and payee must differ");
        assertThat(reasons.get(3)).contains("only BRL");
        assertThat(reasons.get(4)).startsWith("not a PaymentRequested but a PaymentSettled");

        // A bug (not transient): bounded attempts alone, then the payment is dead-lettered and parked, and the
        // partition moves on.
        faults.failBankCalls(new IllegalStateException("simulated bug in the bank connector"));
        PaymentRequested victim = world.payment(payer, payee, 6_00);
        publish(List.of(victim));
        List<ConsumerRecord<String, byte[]>> more =
                kafka.awaitRecords(Topics.PAYMENTS_REQUESTED_DEAD_LETTER, 6, Duration.ofSeconds(30));
        ConsumerRecord<String, byte[]> victimLetter = more.stream()
                .filter(record -> new String(record.value(), StandardCharsets.UTF_8).contains(victim.paymentId()))
                .findFirst()
                .orElseThrow();
        assertThat(text(victimLetter, DeadLetterConvention.REASON_HEADER))
                .isEqualTo(
                        "failed alone after retries: java.lang.IllegalStateException: simulated bug in the bank connector");
        assertThat(faults.bankCalls())
                .as("one call for the first poll, then retry.attempts (2) alone")
                .isEqualTo(1 + 2);
        faults.stopFailingBankCalls();
        PaymentRequested afterBug = world.payment(payer, payee, 7_00);
        publish(List.of(afterBug));
        good.add(afterBug);
        awaitOutcomes(good);

        // A different payment under a settled payment's id: the integrity alarm, dead-lettered, no outcome.
        PaymentRequested impostor = new PaymentRequested(
                after1.paymentId(),
                after1.payerAccountId(),
                after1.payeeAccountId(),
                999_00,
                "BRL",
                "same id, other amount",
                "E2E-impostor",
                Instant.now());
        publish(List.of(impostor));
        ConsumerRecord<String, byte[]> alarm = kafka.awaitRecords(
                        Topics.PAYMENTS_REQUESTED_DEAD_LETTER, 7, Duration.ofSeconds(30))
                .getLast();
        assertThat(text(alarm, DeadLetterConvention.REASON_HEADER))
                .startsWith("integrity alarm: reserving leg 1 answered EXISTS_WITH_DIFFERENT_AMOUNT");

        // The books: the victim expired (nothing moved) with one outcome; the impostor moved nothing and got none.
        good.add(victim);
        Map<String, String> states = Books.check(world, good, awaitOutcomes(good));
        assertThat(states.get(victim.paymentId())).isEqualTo("EXPIRED");
        assertThat(states.values().stream().filter("SETTLED"::equals)).hasSize(good.size() - 1);
        assertThat(outcomes.drain(Duration.ofMillis(300)))
                .as("nothing for the impostor")
                .noneMatch(outcome -> outcome.amountCentavos() == 999_00);
        assertThat(Books.balance(ledger, payee)).isEqualTo(1_00 + 4_00 + 5_00 + 7_00);
    }

    /**
     * A record that fits its topic but not its dead letter (the reason and the original coordinates add
     * headers) is dead-lettered without its value: the letter names where the original lies, and the
     * payment behind it on the partition settles. Before, the producer refused the dead letter
     * (RecordTooLargeException), the poll was retried forever, and no payment of that partition got an
     * outcome again.
     */
    @Test
    void aRecordTooLargeToDeadLetterWholeDoesNotBlockItsPartition() throws Exception {
        world.fundReserve(PixWorld.BANK_A, 1_000_000_00).fundReserve(PixWorld.BANK_B, 1_000_000_00);
        Id128 payer = world.openCustomers(PixWorld.BANK_A, 1, 1, 1_000_00).getFirst();
        Id128 payee = world.openCustomers(PixWorld.BANK_B, 1, 1, 0).getFirst();
        byte[] garbage = new byte[1_048_000]; // the test producer's max.request.size (Kafka's default) is 1,048,576
        Arrays.fill(garbage, (byte) 'x');
        RecordMetadata large = kafka.publishRaw(Topics.PAYMENTS_REQUESTED, payer.toString(), garbage);
        PaymentRequested after = world.payment(payer, payee, 1_00);
        publish(List.of(after));
        startClearing();

        assertThat(Books.check(world, List.of(after), awaitOutcomes(List.of(after)))
                        .get(after.paymentId()))
                .isEqualTo("SETTLED");
        ConsumerRecord<String, byte[]> letter = kafka.awaitRecords(
                        Topics.PAYMENTS_REQUESTED_DEAD_LETTER, 1, Duration.ofSeconds(10))
                .getFirst();
        assertThat(letter.partition()).isEqualTo(large.partition());
        assertThat(letter.value()).as("the value left out").isEmpty();
        assertThat(text(letter, DeadLetters.VALUE_OMITTED_HEADER)).isEqualTo(Integer.toString(garbage.length));
        assertThat(text(letter, DeadLetterConvention.REASON_HEADER)).startsWith("undecodable");
        assertThat(ByteBuffer.wrap(letter.headers()
                                .lastHeader(KafkaHeaders.DLT_ORIGINAL_OFFSET)
                                .value())
                        .getLong())
                .as("where the original lies")
                .isEqualTo(large.offset());
    }

    private static PaymentRequested withCurrency(PaymentRequested payment, String currency) {
        return new PaymentRequested(
                payment.paymentId(),
                payment.payerAccountId(),
                payment.payeeAccountId(),
                payment.amountCentavos(),
                currency,
                payment.description(),
                payment.endToEndId(),
                payment.acceptedAt());
    }

    private static String text(ConsumerRecord<String, byte[]> record, String header) {
        Header found = record.headers().lastHeader(header);
        return found == null ? null : new String(found.value(), StandardCharsets.UTF_8);
    }
}
