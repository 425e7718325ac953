package io.pagora.payments.api.application.limits;

import io.pagora.kernel.Check;
import io.pagora.settlement.domain.access.Caller;
import java.math.BigDecimal;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A token bucket per participant in this instance's memory: {@code burst} tokens, refilled at
 * {@code refillPerSecond}; behind {@link ParticipantLimits}' payments and {@link UnknownAccountLimit}'s answers when
 * the limits are not shared, and an instance's share of them while the shared store is out of reach
 * ({@link LeasedTokenBuckets}).
 * <ul>
 *   <li>{@link #take}: tokens taken before the work, all or none;
 *   <li>{@link #takeIntoDebt}: a cost known only after the work (an answer already given); the participant pays the
 *       debt back at the refill rate before it has a token again.
 * </ul>
 * Both answer a wait in whole seconds (the Retry-After a refusal carries), computed here only.
 *
 * <p>Cheap on the hot path (12,000 payments/s): one map lookup and one compare-and-set, no lock and nothing
 * allocated. The bucket is GCRA (the generic cell rate algorithm): one long per participant, the instant its bucket
 * is full again. Memory is bounded: at most {@code participantsMax} participants are tracked, never forgotten (a
 * forgotten one would start again with a full bucket and shed its debt); a newcomer past the bound is not
 * {@link #track tracked}, and its limit refuses it. Participants hold certificates the operator issued: a known set.
 */
public final class ParticipantTokenBuckets implements ParticipantBuckets {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** A full bucket refills within a day: keeps every sum far below overflow (see {@link #DEBT_MAX_NANOS}). */
    private static final long BURST_NANOS_MAX = 86_400 * NANOS_PER_SECOND;
    /** Debt beyond this (73 years of refill) is not recorded: nanoTime arithmetic stays far from overflow. */
    private static final long DEBT_MAX_NANOS = 1L << 61;
    /**
     * A failed compare-and-set means another take of this participant succeeded at that instant; after this many in a
     * row, the participant is far past any honest rate and is answered as over it.
     */
    private static final int CONTENDED_ATTEMPTS_MAX = 1024;

    private final long burst;
    private final double refillPerSecond;
    private final long nanosPerToken;
    private final long burstNanos;
    private final int participantsMax;
    private final LongSupplier nanoTime;
    /** Per participant, GCRA's theoretical arrival time: the nanoTime at which its bucket is full (past: full now). */
    private final ConcurrentHashMap<Caller, AtomicLong> fullAtNanos;

    private final AtomicInteger participants = new AtomicInteger();

    /**
     * @param burst tokens a participant may hold (and spend at once)
     * @param refillPerSecond tokens a participant earns per second (may be below 1)
     * @param participantsMax participants tracked at most (the map's bound)
     * @param nanoTime the monotonic clock ({@code System::nanoTime})
     */
    public ParticipantTokenBuckets(long burst, double refillPerSecond, int participantsMax, LongSupplier nanoTime) {
        Check.that(burst >= 1 && burst <= 100_000_000, "burst in 1..100000000: %d", burst);
        Check.that(
                refillPerSecond > 0 && refillPerSecond <= NANOS_PER_SECOND,
                "refill per second in (0, 10^9]: %s",
                refillPerSecond);
        Check.that(
                participantsMax >= 1 && participantsMax <= 1_000_000,
                "participants max in 1..1000000: %d",
                participantsMax);
        this.burst = burst;
        this.refillPerSecond = refillPerSecond;
        // Whole nanoseconds per token, rounded down: a rate at most 1 ns per token above the configured one.
        this.nanosPerToken = Math.max(1, (long) (NANOS_PER_SECOND / refillPerSecond));
        Check.that(
                burst <= BURST_NANOS_MAX / nanosPerToken,
                "a full bucket refills within a day: burst %d at %s a" + " second",
                burst,
                refillPerSecond);
        this.burstNanos = burst * nanosPerToken;
        this.participantsMax = participantsMax;
        this.nanoTime = nanoTime;
        this.fullAtNanos = new ConcurrentHashMap<>(Math.min(participantsMax, 1024));
    }

    /**
     * Tracks the participant from now on (a newcomer starts with a full bucket), or answers false when
     * {@code participantsMax} are tracked already. Every other method wants a tracked participant.
     */
    @Override
    public boolean track(Caller participant) {
        if (fullAtNanos.get(participant) != null) {
            return true;
        }
        return fullAtNanos.computeIfAbsent(participant, newcomer -> {
                    // Runs at most once per participant (atomically per key), so the count is exact.
                    if (participants.incrementAndGet() > participantsMax) {
                        participants.decrementAndGet();
                        return null;
                    }
                    return new AtomicLong(nanoTime.getAsLong());
                })
                != null;
    }

    /** Whether the participant is tracked already (a participant that is not has a full bucket). Changes nothing. */
    @Override
    public boolean tracks(Caller participant) {
        return fullAtNanos.get(participant) != null;
    }

    /** Takes {@code tokens}, all or none: 0 if taken, else the whole seconds until they would be (at least 1). */
    @Override
    public long take(Caller participant, int tokens) {
        Check.that(tokens >= 1 && tokens <= burst, "1..burst tokens at once");
        AtomicLong fullAt = bucket(participant);
        long costNanos = tokens * nanosPerToken;
        for (int attempt = 0; attempt < CONTENDED_ATTEMPTS_MAX; attempt++) {
            long now = nanoTime.getAsLong();
            long full = fullAt.get();
            long excessNanos = later(full, now) + costNanos - now - burstNanos;
            if (excessNanos > 0) {
                return seconds(excessNanos);
            }
            if (fullAt.compareAndSet(full, later(full, now) + costNanos)) {
                return 0;
            }
        }
        return seconds(nanosPerToken);
    }

    /** Whole seconds until the participant's bucket holds {@code tokens}: 0 if it does now. Takes nothing. */
    @Override
    public long secondsUntil(Caller participant, int tokens) {
        Check.that(tokens >= 1 && tokens <= burst, "1..burst tokens at once");
        long now = nanoTime.getAsLong();
        long excessNanos = later(bucket(participant).get(), now) + tokens * nanosPerToken - now - burstNanos;
        return excessNanos > 0 ? seconds(excessNanos) : 0;
    }

    /** Takes {@code tokens} whatever the bucket holds, into debt if need be: for a cost known after the work. */
    @Override
    public void takeIntoDebt(Caller participant, int tokens) {
        Check.that(tokens >= 0 && tokens <= 1_000_000, "0..1000000 tokens taken at once");
        AtomicLong fullAt = bucket(participant);
        long costNanos = tokens > DEBT_MAX_NANOS / nanosPerToken ? DEBT_MAX_NANOS : tokens * nanosPerToken;
        for (int attempt = 0; attempt < CONTENDED_ATTEMPTS_MAX; attempt++) {
            long now = nanoTime.getAsLong();
            long full = fullAt.get();
            long aheadNanos = Math.min(DEBT_MAX_NANOS, Math.max(0, full - now) + costNanos);
            if (fullAt.compareAndSet(full, now + aheadNanos)) {
                return;
            }
        }
        Check.that(false, "a debt is recorded within the contended attempts");
    }

    /** Participants tracked (a gauge). */
    @Override
    public int participants() {
        return fullAtNanos.size();
    }

    @Override
    public int participantsMax() {
        return participantsMax;
    }

    /** The rate, as a refusal states it: "3750 at once, 750 a second". */
    @Override
    public String rate() {
        return burst + " at once, "
                + BigDecimal.valueOf(refillPerSecond).stripTrailingZeros().toPlainString() + " a second";
    }

    private AtomicLong bucket(Caller participant) {
        AtomicLong fullAt = fullAtNanos.get(participant);
        Check.that(fullAt != null, "a participant is tracked before its bucket is used");
        return fullAt;
    }

    /** The later of two nanoTimes (compared by difference, as nanoTime requires). */
    private static long later(long a, long b) {
        return a - b < 0 ? b : a;
    }

    private static long seconds(long waitNanos) {
        return Math.max(1, (waitNanos + NANOS_PER_SECOND - 1) / NANOS_PER_SECOND);
    }
}
