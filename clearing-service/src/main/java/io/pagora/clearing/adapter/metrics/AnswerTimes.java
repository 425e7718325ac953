package io.pagora.clearing.adapter.metrics;

import io.pagora.kernel.Check;
import io.pagora.settlement.domain.BankId;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * How quickly the receiving banks' answers come back, as the instructed window reads it: the chains resolved since the
 * last sample, per receiving bank. A chain resolved before the pending timeout was answered in time (late if at or
 * after {@code lateAfter}); one resolved after it expired, whether its answer came too late or never. The expiries of a
 * bank count only in an interval in which that bank answered something in time: then its answers are queueing behind
 * the switch's own backlog, which the window must shrink. A bank that is down, or answers only after the timeout,
 * answers nothing in time, and its chains must not close the window on the banks that do answer.
 */
public final class AnswerTimes {

    /** The most receiving banks tracked at once (participants are a bounded set; beyond it the sample is reset). */
    static final int BANKS_MAX = 10_000;

    /**
     * The resolutions of a sample, over the banks that answered in time.
     *
     * @param inTime chains answered in time (by any bank)
     * @param answered chains answered in time, plus the expiries of the banks that answered in time
     * @param late of those, answered at or after {@code lateAfter}, or expired
     * @param roundNanos the longest answer in time: how long the effect of a reservation takes to show
     */
    public record Sample(long inTime, long answered, long late, long roundNanos) {

        public Sample {
            Check.that(inTime >= 0 && inTime <= answered, "in time %d of %d answered", inTime, answered);
            Check.that(late >= 0 && late <= answered, "late %d of %d answered", late, answered);
            Check.that(roundNanos >= 0, "roundNanos %d", roundNanos);
        }

        /** More than {@code sharePercent} % of the resolutions were late (and at least one was). */
        public boolean lateAbove(int sharePercent) {
            return late > 0 && late * 100 > answered * sharePercent;
        }
    }

    private static final class Counts {
        long inTime;
        long lateInTime;
        long expired;
        long roundNanos;
    }

    private final long lateAfterNanos;
    private final long expiredAfterNanos;
    private final Map<BankId, Counts> banks = new HashMap<>();

    /**
     * @param lateAfter an answer this long after its chain's reservation is late
     * @param expiredAfter the pending timeout: a chain resolved this long after its reservation or later expired
     */
    public AnswerTimes(Duration lateAfter, Duration expiredAfter) {
        Check.that(
                lateAfter.toNanos() > 0 && lateAfter.compareTo(expiredAfter) < 0,
                "lateAfter in (0, expiredAfter): %s, %s",
                lateAfter,
                expiredAfter);
        this.lateAfterNanos = lateAfter.toNanos();
        this.expiredAfterNanos = expiredAfter.toNanos();
    }

    /** A chain waiting for {@code bank}'s answer was resolved this long after it was reserved. */
    public synchronized void resolvedAfter(BankId bank, Duration age) {
        if (!banks.containsKey(bank) && banks.size() >= BANKS_MAX) {
            banks.clear();
        }
        Counts counts = banks.computeIfAbsent(bank, unused -> new Counts());
        long nanos = age.toNanos();
        if (nanos >= expiredAfterNanos) {
            counts.expired++;
            return;
        }
        counts.inTime++;
        counts.roundNanos = Math.max(counts.roundNanos, nanos);
        if (nanos >= lateAfterNanos) {
            counts.lateInTime++;
        }
    }

    /** The resolutions since the previous sample; starts the next. */
    public synchronized Sample take() {
        long inTime = 0;
        long answered = 0;
        long late = 0;
        long roundNanos = 0;
        for (Counts counts : banks.values()) {
            if (counts.inTime > 0) {
                inTime += counts.inTime;
                answered += counts.inTime + counts.expired;
                late += counts.lateInTime + counts.expired;
                roundNanos = Math.max(roundNanos, counts.roundNanos);
            }
        }
        banks.clear();
        return new Sample(inTime, answered, late, roundNanos);
    }
}
