package io.pagora.clearing.adapter.metrics;

import io.pagora.kernel.Check;
import io.pagora.settlement.domain.BankId;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * How quickly the receiving banks' answers come back, as the instructed windows read them: the chains resolved since
 * the last sample, per receiving bank. A chain resolved before the pending timeout was answered in time (late if at or
 * after {@code lateAfter}); one resolved after it expired, whether its answer came too late or never. A bank whose
 * resolutions in a sample are all expiries answers nothing in time (it is down, or answers only after the timeout):
 * its window stops holding its payments back, since holding them only delays every other bank's in the same poll.
 */
public final class AnswerTimes {

    /** The most receiving banks tracked at once (participants are a bounded set; beyond it the sample is reset). */
    static final int BANKS_MAX = 10_000;

    /**
     * One bank's resolutions in a sample.
     *
     * @param inTime chains answered in time
     * @param answered chains answered in time, plus the chains that expired
     * @param late of those, answered at or after {@code lateAfter}, or expired
     * @param roundNanos the longest answer in time: how long the effect of a reservation takes to show
     */
    public record Sample(long inTime, long answered, long late, long roundNanos) {

        public static final Sample NONE = new Sample(0, 0, 0, 0);

        public Sample {
            Check.that(inTime >= 0 && inTime <= answered, "in time %d of %d answered", inTime, answered);
            Check.that(late >= 0 && late <= answered, "late %d of %d answered", late, answered);
            Check.that(roundNanos >= 0, "roundNanos %d", roundNanos);
        }

        /** More than {@code sharePercent} % of the resolutions were late (and at least one was). */
        public boolean lateAbove(int sharePercent) {
            return late > 0 && late * 100 > answered * sharePercent;
        }

        /** Chains expired and none was answered in time: the bank is down, or answers only after the timeout. */
        public boolean nothingInTime() {
            return inTime == 0 && answered > 0;
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

    /** The resolutions since the previous sample, per bank that had any; starts the next. */
    public synchronized Map<BankId, Sample> take() {
        Map<BankId, Sample> samples = new HashMap<>();
        banks.forEach((bank, counts) -> samples.put(
                bank,
                new Sample(
                        counts.inTime,
                        counts.inTime + counts.expired,
                        counts.lateInTime + counts.expired,
                        counts.roundNanos)));
        banks.clear();
        return samples;
    }
}
