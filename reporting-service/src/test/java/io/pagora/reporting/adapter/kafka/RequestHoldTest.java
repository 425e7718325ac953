package io.pagora.reporting.adapter.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.PaymentEvent;
import io.pagora.reporting.testsupport.Payments;
import io.pagora.reporting.testsupport.Payments.Payment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The hold on its own: which events a poll writes, which it holds back, and the offsets it lets be committed. */
class RequestHoldTest {

    private static final long SECOND = 1_000_000_000L;
    private static final TopicPartition REQUESTS = new TopicPartition("requests", 0);
    private static final TopicPartition OUTCOMES = new TopicPartition("outcomes", 0);

    private final Map<TopicPartition, Long> offsets = new HashMap<>();

    @Test
    void aRequestWaitsForItsOutcomeAndTheyAreWrittenTogether() {
        RequestHold<String> hold = new RequestHold<>(3 * SECOND, 100);
        Payment payment = Payments.any();

        RequestHold.Release<String> first = hold.poll(polls(request(payment)), next(), 0);

        assertThat(first.project()).isEmpty();
        assertThat(first.commit()).containsEntry(REQUESTS, new OffsetAndMetadata(0));
        assertThat(hold.heldCount()).isEqualTo(1);

        RequestHold.Release<String> second = hold.poll(polls(outcome(payment)), next(), SECOND);

        assertThat(second.project())
                .extracting(one -> one.event().getClass().getSimpleName())
                .containsExactly("PaymentRequested", "PaymentSettled");
        assertThat(second.commit())
                .containsEntry(REQUESTS, new OffsetAndMetadata(1))
                .containsEntry(OUTCOMES, new OffsetAndMetadata(1));
        assertThat(hold.heldCount()).isZero();
    }

    @Test
    void aRequestWithItsOutcomeInThePollIsNotHeld() {
        RequestHold<String> hold = new RequestHold<>(3 * SECOND, 100);
        Payment payment = Payments.any();

        RequestHold.Release<String> release = hold.poll(polls(request(payment), outcome(payment)), next(), 0);

        assertThat(release.project()).hasSize(2);
        assertThat(hold.heldCount()).isZero();
    }

    @Test
    void aRequestHeldPastTheHoldIsWrittenAloneByAPollOrWhenIdle() {
        RequestHold<String> hold = new RequestHold<>(3 * SECOND, 100);
        Payment early = Payments.any();
        Payment late = Payments.any();
        hold.poll(polls(request(early)), next(), 0);
        hold.poll(polls(request(late)), next(), 2 * SECOND);

        RequestHold.Release<String> poll = hold.poll(List.of(), Map.of(), 3 * SECOND);

        assertThat(poll.project())
                .extracting(one -> one.event().paymentId().toString())
                .containsExactly(early.paymentId());
        assertThat(poll.commit()).containsExactly(Map.entry(REQUESTS, new OffsetAndMetadata(1)));
        assertThat(hold.idle(5 * SECOND - 1).project()).isEmpty();

        RequestHold.Release<String> idle = hold.idle(5 * SECOND);

        assertThat(idle.project())
                .extracting(one -> one.event().paymentId().toString())
                .containsExactly(late.paymentId());
        assertThat(idle.commit()).containsExactly(Map.entry(REQUESTS, new OffsetAndMetadata(2)));
    }

    @Test
    void theCommitStopsAtTheOldestRequestHeldEvenWhenLaterOnesWereWritten() {
        RequestHold<String> hold = new RequestHold<>(3 * SECOND, 100);
        Payment waiting = Payments.any();
        Payment answered = Payments.any();

        RequestHold.Release<String> release =
                hold.poll(polls(request(waiting), request(answered), outcome(answered)), next(), 0);

        assertThat(release.project()).hasSize(2);
        assertThat(release.commit())
                .containsEntry(REQUESTS, new OffsetAndMetadata(0))
                .containsEntry(OUTCOMES, new OffsetAndMetadata(1));
    }

    @Test
    void pastItsBoundTheLongestHeldAreWritten() {
        RequestHold<String> hold = new RequestHold<>(3 * SECOND, 2);
        Payment first = Payments.any();
        hold.poll(polls(request(first)), next(), 0);

        RequestHold.Release<String> release =
                hold.poll(polls(request(Payments.any()), request(Payments.any())), next(), SECOND);

        assertThat(release.project())
                .extracting(one -> one.event().paymentId().toString())
                .containsExactly(first.paymentId());
        assertThat(hold.heldCount()).isEqualTo(2);
        assertThat(release.commit()).containsExactly(Map.entry(REQUESTS, new OffsetAndMetadata(1)));
    }

    @Test
    void noHoldWritesEverythingAtOnce() {
        RequestHold<String> hold = new RequestHold<>(0, 100);

        RequestHold.Release<String> release = hold.poll(polls(request(Payments.any())), next(), 0);

        assertThat(release.project()).hasSize(1);
        assertThat(release.commit()).containsExactly(Map.entry(REQUESTS, new OffsetAndMetadata(1)));
    }

    @Test
    void aRestoredHoldIsAsBeforeAndARevokedPartitionIsForgotten() {
        RequestHold<String> hold = new RequestHold<>(3 * SECOND, 100);
        Payment payment = Payments.any();
        hold.poll(polls(request(payment)), next(), 0);
        RequestHold.Snapshot<String> before = hold.snapshot();

        hold.poll(polls(outcome(payment)), next(), SECOND);
        hold.restore(before);

        assertThat(hold.heldCount()).isEqualTo(1);
        assertThat(hold.idle(3 * SECOND).project()).hasSize(1);

        hold.poll(polls(request(Payments.any())), next(), 4 * SECOND);
        hold.revoked(List.of(REQUESTS));

        assertThat(hold.heldCount()).isZero();
        assertThat(hold.idle(100 * SECOND).project()).isEmpty();
    }

    @Test
    void everyEventIsWrittenOnceAndTheCommitNeverPassesOneUnwritten() {
        // Random polls of two request partitions and an outcome partition; a request's outcome a few polls later, or
        // never. Every event is written exactly once in the end, and no commit passes a request not yet written.
        Random random = new Random(43);
        RequestHold<String> hold = new RequestHold<>(3 * SECOND, 50);
        TopicPartition[] requestPartitions = {REQUESTS, new TopicPartition("requests", 1)};
        Map<TopicPartition, Long> nextOffset = new HashMap<>();
        Map<String, Integer> written = new HashMap<>();
        Map<TopicPartition, Long> committed = new HashMap<>();
        Map<TopicPartition, List<Long>> unwrittenOffsets = new HashMap<>();
        List<List<PaymentEvent>> outcomesDue = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            outcomesDue.add(new ArrayList<>());
        }
        int events = 0;
        long now = 0;
        for (int round = 0; round < 400; round++) {
            now += random.nextInt(1_500) * 1_000_000L;
            List<RequestHold.Polled<String>> poll = new ArrayList<>();
            Map<TopicPartition, Long> after = new HashMap<>();
            for (int i = random.nextInt(20); i > 0; i--) {
                Payment payment = Payments.any();
                TopicPartition partition = requestPartitions[random.nextInt(2)];
                long offset = nextOffset.merge(partition, 1L, Long::sum) - 1;
                poll.add(new RequestHold.Polled<>(partition, offset, "r" + offset, payment.requested()));
                unwrittenOffsets
                        .computeIfAbsent(partition, p -> new ArrayList<>())
                        .add(offset);
                after.put(partition, offset + 1);
                events++;
                if (random.nextInt(10) > 0) {
                    outcomesDue.get(random.nextInt(10)).add(payment.settled());
                }
            }
            for (PaymentEvent outcome : outcomesDue.removeFirst()) {
                long offset = nextOffset.merge(OUTCOMES, 1L, Long::sum) - 1;
                poll.add(new RequestHold.Polled<>(OUTCOMES, offset, "o" + offset, outcome));
                after.put(OUTCOMES, offset + 1);
                events++;
            }
            outcomesDue.add(new ArrayList<>());
            RequestHold.Release<String> release =
                    random.nextInt(8) == 0 && poll.isEmpty() ? hold.idle(now) : hold.poll(poll, after, now);
            for (RequestHold.Polled<String> one : release.project()) {
                written.merge(
                        one.event().getClass().getSimpleName() + one.event().paymentId(), 1, Integer::sum);
                if (!one.partition().equals(OUTCOMES)) {
                    unwrittenOffsets.get(one.partition()).remove(one.offset());
                }
            }
            release.commit().forEach((partition, offset) -> {
                assertThat(offset.offset())
                        .as("commits never go back")
                        .isGreaterThanOrEqualTo(committed.getOrDefault(partition, 0L));
                committed.put(partition, offset.offset());
                if (!partition.equals(OUTCOMES)) {
                    assertThat(unwrittenOffsets.get(partition))
                            .as("no commit passes a request not written")
                            .allMatch(unwritten -> unwritten >= offset.offset());
                }
            });
        }
        for (List<PaymentEvent> due : outcomesDue) {
            for (PaymentEvent outcome : due) {
                long offset = nextOffset.merge(OUTCOMES, 1L, Long::sum) - 1;
                hold.poll(List.of(new RequestHold.Polled<>(OUTCOMES, offset, "o", outcome)), Map.of(), now)
                        .project()
                        .forEach(one -> written.merge(
                                one.event().getClass().getSimpleName()
                                        + one.event().paymentId(),
                                1,
                                Integer::sum));
                events++;
            }
        }
        hold.idle(now + 10 * SECOND)
                .project()
                .forEach(one -> written.merge(
                        one.event().getClass().getSimpleName() + one.event().paymentId(), 1, Integer::sum));

        assertThat(hold.heldCount()).isZero();
        assertThat(written.values()).allMatch(times -> times == 1);
        assertThat(written).hasSize(events);
    }

    private List<RequestHold.Polled<String>> polls(PaymentEvent... events) {
        List<RequestHold.Polled<String>> polled = new ArrayList<>();
        for (PaymentEvent event : events) {
            TopicPartition partition = event instanceof io.pagora.events.PaymentRequested ? REQUESTS : OUTCOMES;
            long offset = offsets.merge(partition, 1L, Long::sum) - 1;
            polled.add(new RequestHold.Polled<>(partition, offset, partition.topic() + "@" + offset, event));
        }
        return polled;
    }

    /** The offsets after the last events {@link #polls} made. */
    private Map<TopicPartition, Long> next() {
        return new HashMap<>(offsets);
    }

    private static PaymentEvent request(Payment payment) {
        return payment.requested();
    }

    private static PaymentEvent outcome(Payment payment) {
        return payment.settled();
    }
}
