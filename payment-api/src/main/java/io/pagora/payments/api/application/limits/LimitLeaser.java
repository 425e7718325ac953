package io.pagora.payments.api.application.limits;

import io.pagora.kernel.Check;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one thread through which an instance's {@link LeasedTokenBuckets} talk to the {@link SharedLimitStore}: every
 * {@code leaseIntervalNanos}, one transaction for every participant that needs tokens, owes a debt or returns an idle
 * holding, and every {@code heartbeatNanos} a heartbeat that also counts the live instances (the share each one
 * takes: of the burst, of the in-flight bound, and of the limit while the store is out of reach).
 *
 * <p>The store is {@link #stale} once neither has answered for {@code failAfterNanos}: the buckets then admit on this
 * instance's share alone, so payments do not stop because the limit's store is away, and the limit still holds
 * switch-wide while the instances stay the ones last seen.
 */
public final class LimitLeaser implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LimitLeaser.class);
    /** Limits sharing one leaser: payments and unknown-account answers. */
    private static final int BUCKETS_MAX = 8;

    private final SharedLimitStore store;
    private final UUID instance;
    private final long leaseIntervalNanos;
    private final long holdNanos;
    private final long heartbeatNanos;
    private final long liveMillis;
    private final long failAfterNanos;
    private final long leaseWaitNanos;
    private final LongSupplier nanoTime;
    private final List<LeasedTokenBuckets> buckets = new CopyOnWriteArrayList<>();
    private final AtomicLong exchanges = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile int instances = 1;
    private volatile long answeredAtNanos;
    private long heartbeatAtNanos;
    private boolean beaten;
    private volatile boolean failing;
    private volatile Thread thread;
    private volatile boolean running;

    /**
     * @param leaseIntervalMillis how often holdings are topped up (the refill's granularity on an instance)
     * @param holdMillis an idle participant's holding goes back to the store after this long
     * @param heartbeatMillis how often this instance says it is alive
     * @param liveMillis an instance not heard of for this long no longer counts
     * @param failAfterMillis the store not answering for this long: each instance admits on its share alone
     * @param leaseWaitMillis the longest a participant's first payment (or first after an idle spell) waits for its
     *     lease
     */
    public LimitLeaser(
            SharedLimitStore store,
            UUID instance,
            long leaseIntervalMillis,
            long holdMillis,
            long heartbeatMillis,
            long liveMillis,
            long failAfterMillis,
            long leaseWaitMillis,
            LongSupplier nanoTime) {
        Check.that(leaseIntervalMillis >= 1 && leaseIntervalMillis <= 1_000, "lease interval in 1..1000 ms");
        Check.that(holdMillis >= leaseIntervalMillis, "hold at least the lease interval");
        Check.that(heartbeatMillis >= 1 && liveMillis > heartbeatMillis, "live for longer than a heartbeat");
        Check.that(failAfterMillis > heartbeatMillis, "fail after more than a heartbeat");
        Check.that(leaseWaitMillis >= 0 && leaseWaitMillis <= 10_000, "lease wait in 0..10000 ms");
        this.store = store;
        this.instance = instance;
        this.leaseIntervalNanos = TimeUnit.MILLISECONDS.toNanos(leaseIntervalMillis);
        this.holdNanos = TimeUnit.MILLISECONDS.toNanos(holdMillis);
        this.heartbeatNanos = TimeUnit.MILLISECONDS.toNanos(heartbeatMillis);
        this.liveMillis = liveMillis;
        this.failAfterNanos = TimeUnit.MILLISECONDS.toNanos(failAfterMillis);
        this.leaseWaitNanos = TimeUnit.MILLISECONDS.toNanos(leaseWaitMillis);
        this.nanoTime = nanoTime;
        this.answeredAtNanos = nanoTime.getAsLong();
    }

    void register(LeasedTokenBuckets bucket) {
        Check.that(buckets.size() < BUCKETS_MAX, "at most %d limits share a leaser", BUCKETS_MAX);
        buckets.add(bucket);
    }

    /** Says this instance is alive (so the others count it at once), then tops up holdings in the background. */
    public synchronized void start() {
        Check.that(thread == null, "started once");
        tick();
        running = true;
        Thread started = new Thread(this::run, "participant-limit-leaser");
        started.setDaemon(true);
        thread = started;
        started.start();
    }

    /** One round: a heartbeat when due, then one exchange for every participant that needs one. */
    public void tick() {
        long now = nanoTime.getAsLong();
        if (!beaten || now - heartbeatAtNanos >= heartbeatNanos) {
            beaten = true;
            heartbeatAtNanos = now;
            try {
                instances = Math.max(1, store.heartbeat(instance, liveMillis));
                answeredAtNanos = nanoTime.getAsLong();
                failing = false;
            } catch (RuntimeException e) {
                // Asked again next round: the store back, the instances leave their fallback within a round.
                beaten = false;
                failed("the heartbeat", e);
            }
        }
        List<LeasedTokenBuckets.Holding> asked = new ArrayList<>();
        List<SharedLimitStore.Lease> leases = new ArrayList<>();
        List<Integer> ends = new ArrayList<>(buckets.size());
        for (LeasedTokenBuckets bucket : buckets) {
            bucket.due(now, instances, holdNanos, asked, leases);
            ends.add(asked.size());
        }
        if (leases.isEmpty()) {
            return;
        }
        List<SharedLimitStore.Grant> grants;
        try {
            grants = store.lease(instance, liveMillis, leases);
            Check.that(grants.size() == leases.size(), "one grant per lease");
        } catch (RuntimeException e) {
            failed(leases.size() + " leases", e);
            forEach(ends, asked, (bucket, i) -> bucket.unanswered(asked.get(i)));
            return;
        }
        exchanges.incrementAndGet();
        failing = false;
        long answered = nanoTime.getAsLong();
        answeredAtNanos = answered;
        forEach(ends, asked, (bucket, i) -> bucket.answered(answered, leaseIntervalNanos, asked.get(i), grants.get(i)));
    }

    /** Counted every time, logged once per outage: a round every few milliseconds would flood the log. */
    private void failed(String what, RuntimeException e) {
        failures.incrementAndGet();
        if (!failing) {
            failing = true;
            log.warn("participant limits: the shared store did not answer {}: {}", what, e.toString());
        }
    }

    private interface PerHolding {
        void apply(LeasedTokenBuckets bucket, int index);
    }

    private void forEach(List<Integer> ends, List<LeasedTokenBuckets.Holding> asked, PerHolding action) {
        int from = 0;
        for (int b = 0; b < ends.size(); b++) {
            for (int i = from; i < ends.get(b); i++) {
                action.apply(buckets.get(b), i);
            }
            from = ends.get(b);
        }
    }

    private void run() {
        while (running) {
            try {
                tick();
            } catch (RuntimeException e) {
                failed("a lease round", e);
            }
            LockSupport.parkNanos(this, leaseIntervalNanos);
        }
    }

    /** Whether the store has not answered for failAfter: the buckets then admit on this instance's share alone. */
    public boolean stale() {
        return staleAt(nanoTime.getAsLong());
    }

    boolean staleAt(long nowNanos) {
        return nowNanos - answeredAtNanos > failAfterNanos;
    }

    /** Live payment-api instances, this one included, at the last heartbeat (1 until the store says otherwise). */
    public int instances() {
        return instances;
    }

    /** Round trips that granted, wrote back or returned tokens (a counter). */
    public long exchanges() {
        return exchanges.get();
    }

    /** Heartbeats and exchanges the store did not answer (a counter). */
    public long failures() {
        return failures.get();
    }

    long leaseWaitNanos() {
        return leaseWaitNanos;
    }

    /** A payment waits for its lease: the next round now rather than at the end of the interval. */
    void wake() {
        Thread current = thread;
        if (current != null) {
            LockSupport.unpark(current);
        }
    }

    /** Stops the thread and leaves the live instances: the others take its share at their next heartbeat. */
    @Override
    public void close() {
        running = false;
        Thread current = thread;
        if (current != null) {
            LockSupport.unpark(current);
            try {
                current.join(TimeUnit.SECONDS.toMillis(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            store.leave(instance);
        } catch (RuntimeException e) {
            log.warn("participant limits: could not leave the live instances: {}", e.toString());
        }
    }
}
