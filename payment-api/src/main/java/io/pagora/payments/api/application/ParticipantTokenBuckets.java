package io.pagora.payments.api.application;

import io.pagora.kernel.Check;
import io.pagora.settlement.domain.Caller;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A token bucket per participant: {@code burst} tokens, refilled at {@code refillPerSecond}. Tokens are taken
 * after the fact ({@link #take}) and may go below zero: a participant that spent more than it had (a batch
 * answered at once) pays the debt back at the refill rate before {@link #hasToken} says yes again, so over any
 * time t it is never served more than burst + refillPerSecond * t plus what its requests in flight took at once.
 *
 * <p>Memory is bounded: at most {@code participantsMax} buckets, the least recently used forgotten first (a
 * forgotten participant starts again with a full bucket). Participants are callers with a certificate the
 * operator issued, so nobody can mint identities to flush the table.
 */
public final class ParticipantTokenBuckets {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final double burst;
    private final double refillPerSecond;
    private final LongSupplier nanoTime;
    private final Map<Caller, Bucket> buckets;

    private static final class Bucket {
        double tokens;
        long refilledAtNanos;

        Bucket(double tokens, long nowNanos) {
            this.tokens = tokens;
            this.refilledAtNanos = nowNanos;
        }
    }

    public ParticipantTokenBuckets(int burst, double refillPerSecond, int participantsMax, LongSupplier nanoTime) {
        Check.that(burst >= 1 && burst <= 1_000_000_000, "burst in 1..10^9: %d", burst);
        Check.that(refillPerSecond > 0 && refillPerSecond <= 1_000_000_000, "refill per second in (0, 10^9]: %s",
                refillPerSecond);
        Check.that(participantsMax >= 1 && participantsMax <= 1_000_000, "participants max in 1..10^6: %d",
                participantsMax);
        this.burst = burst;
        this.refillPerSecond = refillPerSecond;
        this.nanoTime = nanoTime;
        this.buckets = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Caller, Bucket> eldest) {
                return size() > participantsMax;
            }
        };
    }

    /** True if the participant has at least one whole token now. */
    public synchronized boolean hasToken(Caller participant) {
        return refilled(participant).tokens >= 1;
    }

    /** Takes {@code count} tokens, into debt if need be. */
    public synchronized void take(Caller participant, int count) {
        Check.that(count >= 0, "tokens taken are not negative: %d", count);
        refilled(participant).tokens -= count;
    }

    /** Whole seconds until the participant has a token again; 0 if it has one now. */
    public synchronized long secondsUntilToken(Caller participant) {
        double missing = 1 - refilled(participant).tokens;
        return missing <= 0 ? 0 : (long) Math.ceil(missing / refillPerSecond);
    }

    public synchronized int participants() {
        return buckets.size();
    }

    private Bucket refilled(Caller participant) {
        long now = nanoTime.getAsLong();
        Bucket bucket = buckets.computeIfAbsent(participant, any -> new Bucket(burst, now));
        double elapsedSeconds = Math.max(0, now - bucket.refilledAtNanos) / (double) NANOS_PER_SECOND;
        bucket.tokens = Math.min(burst, bucket.tokens + elapsedSeconds * refillPerSecond);
        bucket.refilledAtNanos = now;
        return bucket;
    }
}
