package io.pagora.payments.api.application.limits;

import io.pagora.kernel.Check;
import io.pagora.settlement.domain.access.Caller;
import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * A token bucket per participant that holds for the whole switch, however many payment-api instances serve it: the
 * bucket itself lives in the {@link SharedLimitStore}, and each instance spends tokens it leased from it.
 * <ul>
 *   <li>The hot path is this instance's share only: one map lookup and one compare-and-set on the tokens it holds,
 *       never a round trip. A refusal from what it holds is immediate.
 *   <li>{@link LimitLeaser}'s thread, every few milliseconds and in one transaction for every participant, tops up
 *       the holdings an eighth of their target or more below it (the target is {@code burst / live instances}: one
 *       instance alone holds the whole burst), writes debts back, and returns what a participant left unspent for
 *       {@code holdNanos}, so an idle holding cannot starve the other instances of the burst. Each exchange also says
 *       what the instance holds: the store refills only up to the burst less what the instances hold, so the bucket
 *       and the holdings together never exceed the burst.
 *   <li>A participant's first payment on this instance (or its first after an idle spell) waits for its lease, at
 *       most the leaser's lease wait: a few milliseconds, once per participant and idle spell, never per payment; no
 *       lease by then, and this instance's share decides, as when the store is away.
 *   <li>The store out of reach ({@link LimitLeaser#stale}): each instance falls back to its share of the limit,
 *       {@code burst / n} and {@code refill / n} with {@code n} the live instances it last saw, in its memory
 *       (the limit holds as long as no instance starts meanwhile).
 * </ul>
 * Tokens leased and not spent are lost if the instance stops: the limit only gets stricter, never looser. The shared
 * bucket refills on the store's clock and is never forgotten, so a restart forgives no debt.
 */
public final class LeasedTokenBuckets implements ParticipantBuckets {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** A refusal's Retry-After at most (a day): a debt deeper than that is answered as a day. */
    private static final long RETRY_AFTER_SECONDS_MAX = 86_400;
    /** The longest a participant without tokens left waits before asking the store again. */
    private static final long ASK_BACKOFF_NANOS_MAX = NANOS_PER_SECOND;

    private static final int CONTENDED_ATTEMPTS_MAX = 1024;
    private static final long ACTIVE_GRANULARITY_NANOS = 1_000_000;
    /**
     * A holding is topped up once this fraction of its target is spent. What an instance spent since it last said what
     * it holds is not refilled in the store until it says so again: a small step keeps that loss small, and a bank
     * spending its whole burst costs a few exchanges, not one per payment.
     */
    private static final long TOP_UP_FRACTION = 8;

    private final String bucket;
    private final long burst;
    private final double refillPerSecond;
    private final int participantsMax;
    private final LimitLeaser leaser;
    private final LongSupplier nanoTime;
    private final ConcurrentHashMap<Caller, Holding> holdings;
    private final AtomicInteger participants = new AtomicInteger();
    /** This instance's share, used while the store is out of reach; rebuilt by the leaser as instances come and go. */
    private volatile Share fallback;

    private int fallbackInstances;

    /**
     * @param bucket the limit's name in the store ({@code payments}, {@code unknown-accounts})
     * @param burst tokens a participant may hold, switch-wide
     * @param refillPerSecond tokens a participant earns per second, switch-wide
     * @param participantsMax participants tracked at most
     */
    public LeasedTokenBuckets(
            String bucket,
            long burst,
            double refillPerSecond,
            int participantsMax,
            LimitLeaser leaser,
            LongSupplier nanoTime) {
        Check.that(burst >= 1 && burst <= 100_000_000, "burst in 1..100000000: %d", burst);
        Check.that(refillPerSecond > 0 && refillPerSecond <= NANOS_PER_SECOND, "refill per second in (0, 10^9]");
        Check.that(participantsMax >= 1 && participantsMax <= 1_000_000, "participants max in 1..1000000");
        this.bucket = bucket;
        this.burst = burst;
        this.refillPerSecond = refillPerSecond;
        this.participantsMax = participantsMax;
        this.leaser = leaser;
        this.nanoTime = nanoTime;
        this.holdings = new ConcurrentHashMap<>(Math.min(participantsMax, 1024));
        this.fallbackInstances = 1;
        this.fallback = share(1);
        leaser.register(this);
    }

    /** One participant's holding on this instance. */
    static final class Holding {
        final String name;
        /** Tokens this instance holds; below zero, a debt not yet written back to the store. */
        final AtomicLong tokens = new AtomicLong();
        /** The last nanoTime a payment asked for tokens: a participant idle for holdNanos holds none. */
        volatile long activeAtNanos;
        /** A lease answered since this instance last held nothing: its tokens say what the participant has. */
        volatile boolean leased;
        /** Guards the wait for {@link #leased}: a lock, not a monitor, so a waiting virtual thread frees its carrier. */
        final ReentrantLock lock = new ReentrantLock();

        final Condition leasedNow = lock.newCondition();
        /** What the shared bucket held after the last grant, and when: for a refusal's Retry-After. */
        volatile double sharedLeft;

        volatile long sharedSeenNanos;
        /** The largest take refused here: the holding's target is at least that, so a large batch is not refused forever. */
        volatile long needed;
        /** The leaser's alone: when to ask again a bucket that had nothing left, and what is in flight. */
        long askAtNanos;

        long debtSent;
        long returnedSent;
        long wantSent;
        boolean activeSent;

        Holding(String name, long now) {
            this.name = name;
            this.activeAtNanos = now;
            this.sharedSeenNanos = now;
            this.askAtNanos = now;
        }
    }

    @Override
    public boolean track(Caller participant) {
        if (holdings.get(participant) != null) {
            return true;
        }
        return holdings.computeIfAbsent(participant, newcomer -> {
                    if (participants.incrementAndGet() > participantsMax) {
                        participants.decrementAndGet();
                        return null;
                    }
                    return new Holding(newcomer.principalName(), nanoTime.getAsLong());
                })
                != null;
    }

    @Override
    public boolean tracks(Caller participant) {
        return holdings.get(participant) != null;
    }

    @Override
    public long take(Caller participant, int tokens) {
        Check.that(tokens >= 1 && tokens <= burst, "1..burst tokens at once");
        Holding holding = holding(participant);
        long now = nanoTime.getAsLong();
        if (leaser.staleAt(now)) {
            return fallbackTake(participant, tokens);
        }
        if (!awaitLease(holding, now)) {
            // No lease within the wait: the store is slow or away, and this instance's share decides.
            return fallbackTake(participant, tokens);
        }
        AtomicLong held = holding.tokens;
        for (int attempt = 0; attempt < CONTENDED_ATTEMPTS_MAX; attempt++) {
            long have = held.get();
            if (have < tokens) {
                if (tokens > holding.needed) {
                    // A batch above the share's target: the next rounds lease that much for it.
                    holding.needed = tokens;
                }
                return seconds(holding, tokens - have);
            }
            if (held.compareAndSet(have, have - tokens)) {
                return 0;
            }
        }
        return 1;
    }

    @Override
    public long secondsUntil(Caller participant, int tokens) {
        Check.that(tokens >= 1 && tokens <= burst, "1..burst tokens at once");
        Holding holding = holding(participant);
        long now = nanoTime.getAsLong();
        if (leaser.staleAt(now) || !awaitLease(holding, now)) {
            Share share = fallback;
            return share.buckets().track(participant)
                    ? share.buckets().secondsUntil(participant, (int) Math.min(tokens, share.burst()))
                    : 1;
        }
        long have = holding.tokens.get();
        return have >= tokens ? 0 : seconds(holding, tokens - have);
    }

    @Override
    public void takeIntoDebt(Caller participant, int tokens) {
        Check.that(tokens >= 0 && tokens <= 1_000_000, "0..1000000 tokens taken at once");
        Holding holding = holding(participant);
        if (leaser.stale()) {
            // Counted on the share alone: the store refills meanwhile, and charging it later would double the debt.
            Share share = fallback;
            if (share.buckets().track(participant)) {
                share.buckets().takeIntoDebt(participant, tokens);
            }
            return;
        }
        holding.activeAtNanos = nanoTime.getAsLong();
        holding.tokens.addAndGet(-tokens);
    }

    @Override
    public int participants() {
        return holdings.size();
    }

    @Override
    public int participantsMax() {
        return participantsMax;
    }

    @Override
    public String rate() {
        return burst + " at once, "
                + BigDecimal.valueOf(refillPerSecond).stripTrailingZeros().toPlainString() + " a second";
    }

    /** Tokens this instance holds for the participant (negative: a debt not written back yet); for tests, metrics. */
    long held(Caller participant) {
        Holding holding = holdings.get(participant);
        return holding == null ? 0 : holding.tokens.get();
    }

    /**
     * The leaser's part, on its thread only: the exchanges this bucket's participants need now, in {@code into}.
     * {@link #answered} or {@link #unanswered} must follow, with the same holdings in the same order.
     */
    void due(long now, int instances, long holdNanos, List<Holding> asked, List<SharedLimitStore.Lease> into) {
        long target = Math.max(1, (burst + instances - 1) / instances);
        for (Holding holding : holdings.values()) {
            boolean active = now - holding.activeAtNanos < holdNanos;
            long held = holding.tokens.get();
            long debt = held < 0 ? -held : 0;
            long returned = 0;
            long want = 0;
            boolean idleReturn = false;
            if (active) {
                long holdingTarget = Math.max(target, holding.needed);
                long topUpStep = Math.max(1, holdingTarget / TOP_UP_FRACTION);
                if (holdingTarget - held >= topUpStep && (now - holding.askAtNanos >= 0 || !holding.leased)) {
                    want = holdingTarget - Math.max(0, held);
                }
            } else if (holding.leased) {
                // Idle: what it holds goes back, and its next payment waits for a lease (a few milliseconds). Sent
                // even with nothing to return: the store then counts it as holding nothing.
                holding.leased = false;
                if (held <= 0 || holding.tokens.compareAndSet(held, 0)) {
                    returned = Math.max(0, held);
                    idleReturn = true;
                } else {
                    // A payment took some meanwhile: active again, it keeps its holding, leased as it was.
                    markLeased(holding);
                }
            }
            long kept = Math.max(0, held) - returned;
            Check.that(kept >= 0, "a holding keeps what it does not return");
            // Active and not leased (its first payment, after an idle spell, or a return the store did not answer):
            // asked even for nothing, as the answer is what marks it leased.
            boolean confirm = active && !holding.leased;
            if (want > 0 || debt > 0 || idleReturn || confirm) {
                holding.debtSent = debt;
                holding.returnedSent = returned;
                holding.wantSent = want;
                holding.activeSent = active;
                asked.add(holding);
                into.add(new SharedLimitStore.Lease(
                        bucket, holding.name, want, debt, returned, kept, burst, refillPerSecond));
            }
        }
        if (instances != fallbackInstances) {
            fallbackInstances = instances;
            fallback = share(instances);
        }
    }

    /** The store answered: the grants are this instance's, the debts are written, the returned tokens gone. */
    void answered(long now, long leaseIntervalNanos, Holding holding, SharedLimitStore.Grant grant) {
        holding.tokens.addAndGet(holding.debtSent + grant.granted());
        holding.sharedLeft = grant.left();
        holding.sharedSeenNanos = now;
        if (holding.wantSent > 0 && grant.granted() < holding.wantSent) {
            // The bucket is empty: ask again when a token is back there (sooner if another instance returns some).
            double waitNanos = Math.max(0, 1 - grant.left()) / refillPerSecond * NANOS_PER_SECOND;
            holding.askAtNanos = now + Math.max(leaseIntervalNanos, Math.min(ASK_BACKOFF_NANOS_MAX, (long) waitNanos));
        } else {
            holding.askAtNanos = now;
        }
        if (holding.activeSent) {
            markLeased(holding);
        }
    }

    /** The store did not answer: the returned tokens are this instance's again; the debts are sent next time. */
    void unanswered(Holding holding) {
        if (holding.returnedSent > 0) {
            holding.tokens.addAndGet(holding.returnedSent);
            // It holds them again, as before the round: its payments spend them rather than wait for a lease.
            markLeased(holding);
        }
    }

    private static void markLeased(Holding holding) {
        holding.lock.lock();
        try {
            holding.leased = true;
            holding.leasedNow.signalAll();
        } finally {
            holding.lock.unlock();
        }
    }

    private Holding holding(Caller participant) {
        Holding holding = holdings.get(participant);
        Check.that(holding != null, "a participant is tracked before its bucket is used");
        return holding;
    }

    /** Whether the participant's holding is leased, after a wait of at most the leaser's bound. */
    private boolean awaitLease(Holding holding, long now) {
        // Written at most once a millisecond: every payment writing it would contend on the participant's line.
        if (now - holding.activeAtNanos > ACTIVE_GRANULARITY_NANOS) {
            holding.activeAtNanos = now;
        }
        if (holding.leased) {
            return true;
        }
        leaser.wake();
        long waitNanos = leaser.leaseWaitNanos();
        holding.lock.lock();
        try {
            while (!holding.leased && waitNanos > 0) {
                waitNanos = holding.leasedNow.awaitNanos(waitNanos);
            }
            return holding.leased;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            holding.lock.unlock();
        }
    }

    private long fallbackTake(Caller participant, int tokens) {
        Share share = fallback;
        if (!share.buckets().track(participant)) {
            return 1;
        }
        // A batch larger than the share's burst takes the whole share: refused forever would stop that bank's batches.
        return share.buckets().take(participant, (int) Math.min(tokens, share.burst()));
    }

    private Share share(int instances) {
        long shareBurst = Math.max(1, burst / instances);
        return new Share(
                new ParticipantTokenBuckets(shareBurst, refillPerSecond / instances, participantsMax, nanoTime),
                shareBurst);
    }

    /** This instance's share of the limit, in its memory alone. */
    private record Share(ParticipantTokenBuckets buckets, long burst) {}

    /** Whole seconds until {@code missing} more tokens could be here: what the store holds first, then its refill. */
    private long seconds(Holding holding, long missing) {
        double refilled = holding.sharedLeft
                + refillPerSecond * (nanoTime.getAsLong() - holding.sharedSeenNanos) / NANOS_PER_SECOND;
        // Below zero, the store holds a debt: paid back before any token is.
        double stillMissing = missing - Math.min(burst, refilled);
        if (stillMissing <= 0) {
            return 1;
        }
        return Math.min(RETRY_AFTER_SECONDS_MAX, Math.max(1, (long) Math.ceil(stillMissing / refillPerSecond)));
    }
}
