package io.pagora.reporting.adapter.kafka;

import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Check;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * One consumer's payment requests held back until their outcome is in hand, so that the read model writes a payment
 * once, already final. With the banks as participants a payment's outcome comes 0.3–2 s after its request, past the
 * end of the projection's window for most payments: measured with the window alone, 3 of 1,719 payments at 200/s
 * and none of 98,856 at 6,104/s were written once, every other one inserted ACCEPTED and then finalized.
 *
 * <p>A request is held at most {@code holdNanos} (then written ACCEPTED, as before) and at most {@code heldMax}
 * requests are held (past it the oldest is written). Nothing held is acknowledged: the offsets committed for a
 * requests partition stop at its oldest held request, so a crash or a rebalance loses nothing the read model has not
 * written; the requests after it are delivered again and written again, which the projection ignores. Not
 * thread-safe: one per consumer, used on its thread.
 */
final class RequestHold<R> {

    /** A request held since {@code sinceNanos}, with what its record needs: its partition and offset. */
    record Held<R>(TopicPartition partition, long offset, R record, PaymentEvent event, long sinceNanos) {}

    /** An event of a poll with its record's partition and offset. */
    record Polled<R>(TopicPartition partition, long offset, R record, PaymentEvent event) {}

    /** What to write now (the requests released first, then the poll's events in order) and what to commit. */
    record Release<R>(List<Polled<R>> project, Map<TopicPartition, OffsetAndMetadata> commit) {}

    private final long holdNanos;
    private final int heldMax;
    private final Map<TopicPartition, ArrayDeque<Held<R>>> held = new HashMap<>();
    /** Per partition, the offset after the last record this consumer was given. */
    private final Map<TopicPartition, Long> next = new HashMap<>();

    private int heldCount;

    RequestHold(long holdNanos, int heldMax) {
        Check.that(holdNanos >= 0, "a hold is not negative: %d ns", holdNanos);
        Check.that(heldMax >= 1, "at least one request may be held: %d", heldMax);
        this.holdNanos = holdNanos;
        this.heldMax = heldMax;
    }

    /**
     * A poll's valid events (in delivery order) and the offsets after its records, the unusable ones included:
     * every held request whose outcome is in the poll, or held {@code holdNanos} by {@code nowNanos}, is released
     * with the poll's events; the poll's requests whose outcome is not in it are held instead.
     */
    Release<R> poll(List<Polled<R>> events, Map<TopicPartition, Long> nextOffsets, long nowNanos) {
        Set<String> outcomes = new HashSet<>();
        for (Polled<R> polled : events) {
            if (!(polled.event() instanceof PaymentRequested)) {
                outcomes.add(polled.event().paymentId());
            }
        }
        Set<TopicPartition> touched = new HashSet<>(nextOffsets.keySet());
        nextOffsets.forEach((partition, offset) -> next.merge(partition, offset, Math::max));
        List<Polled<R>> project = new ArrayList<>(events.size());
        release(
                held -> outcomes.contains(held.event().paymentId()) || nowNanos - held.sinceNanos() >= holdNanos,
                project,
                touched);
        for (Polled<R> polled : events) {
            if (polled.event() instanceof PaymentRequested
                    && !outcomes.contains(polled.event().paymentId())
                    && holdNanos > 0) {
                held.computeIfAbsent(polled.partition(), partition -> new ArrayDeque<>())
                        .addLast(new Held<>(
                                polled.partition(), polled.offset(), polled.record(), polled.event(), nowNanos));
                heldCount++;
            } else {
                project.add(polled);
            }
        }
        releaseOldestPast(heldMax, project, touched);
        return new Release<>(project, commits(touched));
    }

    /** When the consumer was given nothing for a while: the requests held {@code holdNanos} by {@code nowNanos}. */
    Release<R> idle(long nowNanos) {
        List<Polled<R>> project = new ArrayList<>();
        Set<TopicPartition> touched = new HashSet<>();
        release(held -> nowNanos - held.sinceNanos() >= holdNanos, project, touched);
        return new Release<>(project, commits(touched));
    }

    /**
     * The consumer no longer reads these partitions: what it held there is dropped unwritten (the partitions' next
     * reader is given those requests again, from the offset this one committed).
     */
    void revoked(Iterable<TopicPartition> partitions) {
        for (TopicPartition partition : partitions) {
            ArrayDeque<Held<R>> dropped = held.remove(partition);
            heldCount -= dropped == null ? 0 : dropped.size();
            next.remove(partition);
        }
        Check.that(heldCount >= 0, "held requests counted from zero: %d", heldCount);
    }

    int heldCount() {
        return heldCount;
    }

    /** The state as it is, for {@link #restore} when what a release said to write was not written. */
    Snapshot<R> snapshot() {
        Map<TopicPartition, ArrayDeque<Held<R>>> copy = new HashMap<>();
        held.forEach((partition, queue) -> copy.put(partition, new ArrayDeque<>(queue)));
        return new Snapshot<>(copy, Map.copyOf(next), heldCount);
    }

    void restore(Snapshot<R> snapshot) {
        held.clear();
        snapshot.held().forEach((partition, queue) -> held.put(partition, new ArrayDeque<>(queue)));
        next.clear();
        next.putAll(snapshot.next());
        heldCount = snapshot.heldCount();
    }

    record Snapshot<R>(Map<TopicPartition, ArrayDeque<Held<R>>> held, Map<TopicPartition, Long> next, int heldCount) {}

    private void release(Predicate<Held<R>> due, List<Polled<R>> project, Set<TopicPartition> touched) {
        for (Map.Entry<TopicPartition, ArrayDeque<Held<R>>> entry : held.entrySet()) {
            Iterator<Held<R>> each = entry.getValue().iterator();
            while (each.hasNext()) {
                Held<R> one = each.next();
                if (due.test(one)) {
                    each.remove();
                    heldCount--;
                    project.add(new Polled<>(one.partition(), one.offset(), one.record(), one.event()));
                    touched.add(entry.getKey());
                }
            }
        }
        held.values().removeIf(ArrayDeque::isEmpty);
    }

    /** Bounded: past {@code max} held, the longest held are released (written ACCEPTED), oldest first. */
    private void releaseOldestPast(int max, List<Polled<R>> project, Set<TopicPartition> touched) {
        while (heldCount > max) {
            ArrayDeque<Held<R>> oldest = null;
            for (ArrayDeque<Held<R>> queue : held.values()) {
                if (oldest == null
                        || queue.peekFirst().sinceNanos() < oldest.peekFirst().sinceNanos()) {
                    oldest = queue;
                }
            }
            Check.that(oldest != null, "%d requests held in no partition", heldCount);
            Held<R> one = oldest.removeFirst();
            heldCount--;
            project.add(new Polled<>(one.partition(), one.offset(), one.record(), one.event()));
            touched.add(one.partition());
            if (oldest.isEmpty()) {
                held.remove(one.partition());
            }
        }
    }

    /**
     * For each partition touched: the offset of its oldest held request, or past the last record given if it holds
     * none. Never backwards: a request is held only after every request of lower offset in its partition was.
     */
    private Map<TopicPartition, OffsetAndMetadata> commits(Set<TopicPartition> touched) {
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        for (TopicPartition partition : touched) {
            ArrayDeque<Held<R>> queue = held.get(partition);
            Long after = next.get(partition);
            if (queue != null && !queue.isEmpty()) {
                commit.put(partition, new OffsetAndMetadata(oldestOffset(queue)));
            } else if (after != null) {
                commit.put(partition, new OffsetAndMetadata(after));
            }
        }
        return commit;
    }

    private static <R> long oldestOffset(ArrayDeque<Held<R>> queue) {
        long oldest = Long.MAX_VALUE;
        for (Held<R> one : queue) {
            oldest = Math.min(oldest, one.offset());
        }
        return oldest;
    }
}
