package io.pagora.clearing.adapter.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pagora.clearing.application.InstructionWindow;
import io.pagora.kernel.Check;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * With participants, clearing reserves no faster than the banks answer: a poll of requests is reserved and instructed
 * in parts, each only as large as the room left under the window's limit of this process's instructed chains still
 * waiting for an answer ({@link PendingChains}). Without a window, an arrival rate above what the banks' answers and
 * clearing's answer path can carry is reserved all the same; every chain's pending timeout runs while its answer
 * queues, and once the queue is longer than the timeout nearly everything expires: at 12,000/s offered on TigerBeetle
 * the participants' path settled 96/s, expiring 1.76 million payments. With it the excess waits in Kafka, where no
 * timeout runs, and the path settles what it can carry.
 *
 * <p>The limit follows the answers, because what the path carries within a pending timeout depends on the machine, the
 * load and the timeout: a fixed two polls' worth (5,458) reserved at once after a restart, on two cores with a 2 s
 * timeout, expired nearly the whole backlog an outage had left in Kafka. It starts at {@code chainsMin}. It grows by half
 * while the window holds parts back and the answers come in time, at most once per round (the longest answer in time of
 * the last sample, at least {@code roundMin}): a reservation's effect on the answers shows only a round later, and
 * growing faster reserved a burst the answers could not carry. It halves when more than {@value #LATE_SHARE_PERCENT} %
 * of an interval's resolutions were late ({@link AnswerTimes}: late answers, and expiries of the banks that answered in
 * time; a bank that never answers, by design or because it is down, is a few percent, below the threshold), then holds
 * for {@code holdAfterDecrease} (the chains reserved before the decrease answer late all the same).

 * <p>The wait is bounded: a chain leaves the count when its outcome is published (an answer, or the expiry path) and in
 * any case once forgotten, {@code waitMax} after its reservation; after {@code waitMax} the part goes on regardless, at
 * most {@code chainsMin} of it. Two consumer threads may each take the room seen at once: the window overshoots by at
 * most one part per thread.
 */
public final class InstructedWindow implements InstructionWindow {

    public static final String WAIT = "pagora.clearing.instructed.window.wait";
    public static final String LIMIT = "pagora.clearing.instructed.window.limit";
    /** More late answers than this share of an interval's answers halve the limit. */
    static final int LATE_SHARE_PERCENT = 10;
    static final long ADJUST_INTERVAL_NANOS = Duration.ofMillis(250).toNanos();
    private static final long SLICE_MILLIS = 10;

    private final PendingChains pending;
    private final AnswerTimes answerTimes;
    private final int chainsMin;
    private final int chainsMax;
    private final Duration waitMax;
    private final long holdAfterDecreaseNanos;
    private final long roundMinNanos;
    private final LongSupplier nanoTime;
    private final Timer waits;

    private int limit;
    private long adjustedAtNanos;
    private long decreasedAtNanos;
    private long increasedAtNanos;
    private long roundNanos;
    /** Since the limit last changed, some part was cut or held back by it. */
    private boolean limited;

    public InstructedWindow(PendingChains pending, AnswerTimes answerTimes, int chainsMin, int chainsMax,
            Duration roundMin, Duration holdAfterDecrease, Duration waitMax, LongSupplier nanoTime, MeterRegistry meters) {
        Check.that(chainsMin >= 1 && chainsMin <= chainsMax, "1 <= chainsMin <= chainsMax: %d, %d", chainsMin, chainsMax);
        Check.that(!holdAfterDecrease.isNegative(), "holdAfterDecrease must not be negative: %s", holdAfterDecrease);
        Check.that(!roundMin.isNegative(), "roundMin must not be negative: %s", roundMin);
        Check.that(waitMax.toMillis() > 0, "waitMax must be positive: %s", waitMax);
        this.pending = pending;
        this.answerTimes = answerTimes;
        this.chainsMin = chainsMin;
        this.chainsMax = chainsMax;
        this.holdAfterDecreaseNanos = holdAfterDecrease.toNanos();
        this.roundMinNanos = roundMin.toNanos();
        this.waitMax = waitMax;
        this.nanoTime = nanoTime;
        this.limit = chainsMin;
        this.adjustedAtNanos = nanoTime.getAsLong();
        this.decreasedAtNanos = adjustedAtNanos - holdAfterDecreaseNanos;
        this.increasedAtNanos = adjustedAtNanos;
        this.roundNanos = roundMinNanos;
        this.waits = Timer.builder(WAIT).description("Parts of polls of requests held back while the instructed window was full")
                .register(meters);
        Gauge.builder(LIMIT, this, InstructedWindow::limit)
                .description("Instructed chains that may wait for answers before clearing reserves more (follows the answers)")
                .register(meters);
    }

    /**
     * Returns how many of {@code wanted} may be reserved now: the room under the limit once there is some, or
     * {@code min(wanted, chainsMin)} after {@code waitMax}.
     */
    @Override
    public int awaitRoom(int wanted) throws InterruptedException {
        Check.that(wanted >= 1, "wanted must be positive: %d", wanted);
        long started = nanoTime.getAsLong();
        long deadline = started + waitMax.toNanos();
        boolean waited = false;
        while (true) {
            long now = nanoTime.getAsLong();
            int room = room(now, wanted);
            if (room > 0 || now - deadline >= 0) {
                if (waited) {
                    waits.record(Duration.ofNanos(now - started));
                }
                return room > 0 ? Math.min(room, wanted) : Math.min(wanted, chainsMin);
            }
            waited = true;
            Thread.sleep(SLICE_MILLIS);
        }
    }

    public synchronized int limit() {
        return limit;
    }

    private synchronized int room(long now, int wanted) {
        adjust(now);
        int room = limit - pending.count();
        if (room < wanted) {
            limited = true;
        }
        return room;
    }

    private void adjust(long now) {
        if (now - adjustedAtNanos < ADJUST_INTERVAL_NANOS) {
            return;
        }
        adjustedAtNanos = now;
        AnswerTimes.Sample sample = answerTimes.take();
        if (sample.answered() > 0) {
            roundNanos = Math.max(roundMinNanos, sample.roundNanos());
        }
        if (sample.lateAbove(LATE_SHARE_PERCENT)) {
            if (now - decreasedAtNanos >= holdAfterDecreaseNanos) {
                limit = Math.max(chainsMin, limit / 2);
                decreasedAtNanos = now;
                increasedAtNanos = now;
                limited = false;
            }
        } else if (limited && now - increasedAtNanos >= roundNanos) {
            limit = Math.min(chainsMax, limit + Math.max(1, limit / 2));
            increasedAtNanos = now;
            limited = false;
        }
        Check.that(limit >= chainsMin && limit <= chainsMax, "limit %d in [%d, %d]", limit, chainsMin, chainsMax);
    }
}
