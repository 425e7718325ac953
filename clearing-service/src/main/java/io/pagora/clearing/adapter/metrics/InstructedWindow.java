package io.pagora.clearing.adapter.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pagora.clearing.application.participants.InstructionWindow;
import io.pagora.kernel.Check;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * With participants, clearing reserves no faster than the banks answer: a poll of requests is reserved and instructed
 * in parts, each only as large as the room left under the window's limit of this process's instructed chains still
 * waiting for an answer ({@link PendingChains}). A chain's pending timeout runs from its reservation, so reserving more
 * than the answer path carries within it only queues answers until they expire; the excess waits in Kafka instead,
 * where no timeout runs.
 *
 * <p>The limit follows the answers, because what the path carries depends on the machine, the load and the timeout.
 * It starts at {@code chainsMin}, so a restarted process does not reserve an outage's backlog at once. It never exceeds
 * what the answers carried lately within {@code answerWithin} (half the pending timeout): the chains answered in time
 * per second over the last {@value #CARRIED_INTERVALS} intervals, times {@code answerWithin}; so the queue of chains
 * waiting for answers is one the path has shown it empties in time. Under that cap it grows by half while the window
 * holds parts back and the answers come in time, at most once per round (the longest answer in time of the last
 * sample, at least {@code roundMin}): a reservation shows in the answers only a round later. It halves when more than
 * {@value #LATE_SHARE_PERCENT} % of an interval's resolutions were late ({@link AnswerTimes}: late answers, and
 * expiries of the banks that answered in time; a bank that never answers, by design or because it is down, is left
 * out), then holds for {@code answerWithin}, while the chains reserved before the decrease are answered.
 *
 * <p>The wait is bounded: a chain leaves the count when its outcome is published (an answer, or the expiry path) and in
 * any case once forgotten; a poll's parts wait {@code waitMax} in all (below the consumer's poll interval), after which
 * each goes on regardless, at most {@code chainsMin} at a time. Two consumer threads may each take the room seen at
 * once: the window overshoots by at most one part per thread.
 */
public final class InstructedWindow implements InstructionWindow {

    public static final String WAIT = "pagora.clearing.instructed.window.wait";
    public static final String LIMIT = "pagora.clearing.instructed.window.limit";
    /** More late answers than this share of an interval's answers halve the limit. */
    static final int LATE_SHARE_PERCENT = 10;

    static final long ADJUST_INTERVAL_NANOS = Duration.ofMillis(250).toNanos();
    /** The intervals over which the answers' rate is measured for the cap (about a second). */
    static final int CARRIED_INTERVALS = 4;

    private static final long SLICE_MILLIS = 10;

    private final PendingChains pending;
    private final AnswerTimes answerTimes;
    private final int chainsMin;
    private final int chainsMax;
    private final Duration waitMax;
    private final long answerWithinNanos;
    private final long roundMinNanos;
    private final LongSupplier nanoTime;
    private final Timer waits;

    private int limit;
    private long adjustedAtNanos;
    private long decreasedAtNanos;
    private long increasedAtNanos;
    private long roundNanos;
    /** The last intervals' answers in time and lengths, oldest overwritten first. */
    private final long[] carriedInTime = new long[CARRIED_INTERVALS];

    private final long[] carriedNanos = new long[CARRIED_INTERVALS];
    private int carriedNext;
    /** Since the limit last changed, some part was cut or held back by it. */
    private boolean limited;

    public InstructedWindow(
            PendingChains pending,
            AnswerTimes answerTimes,
            int chainsMin,
            int chainsMax,
            Duration roundMin,
            Duration answerWithin,
            Duration waitMax,
            LongSupplier nanoTime,
            MeterRegistry meters) {
        Check.that(
                chainsMin >= 1 && chainsMin <= chainsMax, "1 <= chainsMin <= chainsMax: %d, %d", chainsMin, chainsMax);
        Check.that(!answerWithin.isNegative(), "answerWithin must not be negative: %s", answerWithin);
        Check.that(!roundMin.isNegative(), "roundMin must not be negative: %s", roundMin);
        Check.that(waitMax.toNanos() > 0, "waitMax must be positive: %s", waitMax);
        this.pending = pending;
        this.answerTimes = answerTimes;
        this.chainsMin = chainsMin;
        this.chainsMax = chainsMax;
        this.answerWithinNanos = answerWithin.toNanos();
        this.roundMinNanos = roundMin.toNanos();
        this.waitMax = waitMax;
        this.nanoTime = nanoTime;
        this.limit = chainsMin;
        this.adjustedAtNanos = nanoTime.getAsLong();
        this.decreasedAtNanos = adjustedAtNanos - answerWithinNanos;
        this.increasedAtNanos = adjustedAtNanos;
        this.roundNanos = roundMinNanos;
        this.waits = Timer.builder(WAIT)
                .description("Parts of polls of requests held back while the instructed window was full")
                .register(meters);
        Gauge.builder(LIMIT, this, InstructedWindow::limit)
                .description(
                        "Instructed chains that may wait for answers before clearing reserves more (follows the answers)")
                .register(meters);
    }

    /** A poll whose parts share one wait of at most {@code waitMax}. */
    @Override
    public Poll poll() {
        long deadline = nanoTime.getAsLong() + waitMax.toNanos();
        return wanted -> awaitRoom(wanted, deadline);
    }

    /**
     * Returns how many of {@code wanted} may be reserved now: the room under the limit once there is some, or
     * {@code min(wanted, chainsMin)} once the poll's deadline passed.
     */
    private int awaitRoom(int wanted, long deadline) throws InterruptedException {
        Check.that(wanted >= 1, "wanted must be positive: %d", wanted);
        long started = nanoTime.getAsLong();
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
        AnswerTimes.Sample sample = answerTimes.take();
        carriedInTime[carriedNext] = sample.inTime();
        carriedNanos[carriedNext] = now - adjustedAtNanos;
        carriedNext = (carriedNext + 1) % CARRIED_INTERVALS;
        adjustedAtNanos = now;
        if (sample.inTime() > 0) {
            roundNanos = Math.max(roundMinNanos, sample.roundNanos());
        }
        if (sample.lateAbove(LATE_SHARE_PERCENT)) {
            if (now - decreasedAtNanos >= answerWithinNanos) {
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
        limit = (int) Math.max(chainsMin, Math.min(limit, carried()));
        Check.that(limit >= chainsMin && limit <= chainsMax, "limit %d in [%d, %d]", limit, chainsMin, chainsMax);
    }

    /** The chains the answers carried in time per {@code answerWithin}, at the rate of the last intervals. */
    private long carried() {
        long inTime = 0;
        long nanos = 0;
        for (int i = 0; i < CARRIED_INTERVALS; i++) {
            inTime += carriedInTime[i];
            nanos += carriedNanos[i];
        }
        Check.that(nanos > 0, "the carried intervals last %d ns", nanos);
        return (long) Math.min((double) inTime / nanos * answerWithinNanos, chainsMax);
    }
}
