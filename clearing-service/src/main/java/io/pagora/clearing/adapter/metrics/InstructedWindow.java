package io.pagora.clearing.adapter.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pagora.clearing.application.participants.InstructionWindow;
import io.pagora.kernel.Check;
import io.pagora.settlement.domain.BankId;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * With participants, clearing reserves for each receiving bank no faster than that bank answers: a poll of requests is
 * reserved in parts, each taking for every bank only the room left under that bank's limit of this process's chains
 * still waiting for its answer ({@link PendingChains#awaiting}). A chain's pending timeout runs from its reservation, so
 * reserving more than a bank answers within it only queues its answers until they expire; the excess waits in Kafka
 * instead, where no timeout runs. One window per receiving bank, not one for the process: a bank that answers late
 * halves its own limit, and the banks that answer in time keep theirs, their payments going on in the poll's first
 * part.
 *
 * <p>Each bank's limit follows its answers, because what its path carries depends on the bank, the load and the
 * timeout. It starts at {@code chainsMin}, so a restarted process does not reserve an outage's backlog at once. It
 * never exceeds what that bank's answers carried lately within {@code answerWithin} (half the pending timeout): its
 * chains answered in time per second over the last {@value #CARRIED_INTERVALS} intervals, times {@code answerWithin};
 * so its queue of chains waiting for answers is one the bank has shown it empties in time. Under that cap it grows by
 * half while the window holds that bank's part back and its answers come in time, at most once per round (its longest
 * answer in time of the last sample, at least {@code roundMin}): a reservation shows in the answers only a round later.
 * It halves when more than {@value #LATE_SHARE_PERCENT} % of an interval's resolutions were late ({@link AnswerTimes}:
 * late answers and expiries), then holds for {@code answerWithin}, while the chains reserved before the decrease are
 * answered.
 *
 * <p>A bank whose chains expire while it has answered nothing in time for {@code silentFor} (the pending timeout), and
 * other banks do answer in time, is not held at all until it answers in time again: it is down, or answers only after
 * the timeout, so its payments can only expire, and holding them would hold the poll, so every other bank's payments
 * in it, for as long as the expiry path takes to free its room. Only then: a bank with a stray expiry among answers in
 * time, or one quiet for a moment, is held as before; and when no bank answers in time (this process or the switch's
 * answer path is behind, e.g. after a restart), every bank stays held.
 *
 * <p>The wait is bounded: a chain leaves the count when its outcome is published (an answer, or the expiry path) and in
 * any case once forgotten; a poll's parts wait {@code waitMax} in all (below the consumer's poll interval), after which
 * each goes on regardless, at most {@code chainsMin} per bank at a time. Two consumer threads may each take the room
 * seen at once: a bank's window overshoots by at most one part per thread. At most {@value #BANKS_MAX} banks are
 * tracked (participants are a bounded set); beyond that a bank in its starting state is forgotten.
 */
public final class InstructedWindow implements InstructionWindow {

    public static final String WAIT = "pagora.clearing.instructed.window.wait";
    public static final String LIMIT = "pagora.clearing.instructed.window.limit";
    public static final String HELD = "pagora.clearing.instructed.window.held";
    /** More late answers than this share of an interval's answers halve the limit. */
    static final int LATE_SHARE_PERCENT = 10;

    static final long ADJUST_INTERVAL_NANOS = Duration.ofMillis(250).toNanos();
    /** The intervals over which the answers' rate is measured for the cap (about a second). */
    static final int CARRIED_INTERVALS = 4;

    static final int BANKS_MAX = 10_000;

    private static final long SLICE_MILLIS = 10;

    /** One receiving bank's window. */
    private final class BankLimit {
        int limit = chainsMin;
        long decreasedAtNanos;
        long increasedAtNanos;
        long roundNanos = roundMinNanos;
        /** The last intervals' answers in time, at the same index as {@link #carriedNanos}. */
        final long[] carriedInTime = new long[CARRIED_INTERVALS];
        /** Since the limit last changed, some part was cut or held back by it. */
        boolean limited;
        /** False while it answers nothing in time and others do: then it is not held. */
        boolean answering = true;
        /** When it last answered something in time (or was first seen). */
        long inTimeAtNanos;

        BankLimit(long now) {
            decreasedAtNanos = now - answerWithinNanos;
            increasedAtNanos = now;
            inTimeAtNanos = now;
        }

        /** {@code othersInTime}: some other bank answered in time in the same sample (the answer path works). */
        void adjust(long now, AnswerTimes.Sample sample, boolean othersInTime) {
            carriedInTime[carriedNext] = sample.inTime();
            if (sample.inTime() > 0) {
                roundNanos = Math.max(roundMinNanos, sample.roundNanos());
                inTimeAtNanos = now;
                answering = true;
            } else if (sample.nothingInTime() && othersInTime && now - inTimeAtNanos >= silentNanos) {
                answering = false;
                limited = false;
            }
            if (answering && sample.lateAbove(LATE_SHARE_PERCENT)) {
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

        /** The chains this bank's answers carried in time per {@code answerWithin}, at the rate of the last intervals. */
        long carried() {
            long inTime = 0;
            long nanos = 0;
            for (int i = 0; i < CARRIED_INTERVALS; i++) {
                inTime += carriedInTime[i];
                nanos += carriedNanos[i];
            }
            Check.that(nanos > 0, "the carried intervals last %d ns", nanos);
            return (long) Math.min((double) inTime / nanos * answerWithinNanos, chainsMax);
        }

        /** Its starting state again: forgetting it changes nothing. */
        boolean starting() {
            return answering && limit == chainsMin && !limited;
        }
    }

    private final PendingChains pending;
    private final AnswerTimes answerTimes;
    private final int chainsMin;
    private final int chainsMax;
    private final Duration waitMax;
    private final long answerWithinNanos;
    private final long roundMinNanos;
    private final long silentNanos;
    private final LongSupplier nanoTime;
    private final MeterRegistry meters;
    private final Timer waits;

    private final Map<BankId, BankLimit> banks = new HashMap<>();
    /** Banks whose limit gauge is registered (at most one registration per bank ever seen). */
    private final Set<BankId> gauged = new HashSet<>();

    private long adjustedAtNanos;
    /** The last intervals' lengths, oldest overwritten first; every bank's answers are counted over the same ones. */
    private final long[] carriedNanos = new long[CARRIED_INTERVALS];

    private int carriedNext;

    public InstructedWindow(
            PendingChains pending,
            AnswerTimes answerTimes,
            int chainsMin,
            int chainsMax,
            Duration roundMin,
            Duration answerWithin,
            Duration silentFor,
            Duration waitMax,
            LongSupplier nanoTime,
            MeterRegistry meters) {
        Check.that(
                chainsMin >= 1 && chainsMin <= chainsMax, "1 <= chainsMin <= chainsMax: %d, %d", chainsMin, chainsMax);
        Check.that(!answerWithin.isNegative(), "answerWithin must not be negative: %s", answerWithin);
        Check.that(!roundMin.isNegative(), "roundMin must not be negative: %s", roundMin);
        Check.that(waitMax.toNanos() > 0, "waitMax must be positive: %s", waitMax);
        Check.that(silentFor.toNanos() > 0, "silentFor must be positive: %s", silentFor);
        this.pending = pending;
        this.answerTimes = answerTimes;
        this.chainsMin = chainsMin;
        this.chainsMax = chainsMax;
        this.answerWithinNanos = answerWithin.toNanos();
        this.roundMinNanos = roundMin.toNanos();
        this.silentNanos = silentFor.toNanos();
        this.waitMax = waitMax;
        this.nanoTime = nanoTime;
        this.meters = meters;
        this.adjustedAtNanos = nanoTime.getAsLong();
        this.waits = Timer.builder(WAIT)
                .description("Parts of polls held back while every asking bank's instructed window was full")
                .register(meters);
    }

    /** A poll whose parts share one wait of at most {@code waitMax}. */
    @Override
    public Poll poll() {
        long deadline = nanoTime.getAsLong() + waitMax.toNanos();
        return wanted -> awaitRoom(wanted, deadline);
    }

    /**
     * Returns, per bank, how many of {@code wanted} may be reserved now: the room under each bank's limit once some
     * bank has room, or {@code min(wanted, chainsMin)} for each once the poll's deadline passed.
     */
    private Map<BankId, Integer> awaitRoom(Map<BankId, Integer> wanted, long deadline) throws InterruptedException {
        Check.that(!wanted.isEmpty(), "no bank wants room");
        wanted.forEach((bank, count) -> Check.that(count >= 1, "wanted for %s must be positive: %d", bank, count));
        long started = nanoTime.getAsLong();
        boolean waited = false;
        while (true) {
            long now = nanoTime.getAsLong();
            Map<BankId, Integer> granted = rooms(now, wanted);
            boolean late = now - deadline >= 0;
            if (!granted.isEmpty() || late) {
                if (waited) {
                    waits.record(Duration.ofNanos(now - started));
                }
                if (granted.isEmpty()) {
                    wanted.forEach((bank, count) -> granted.put(bank, Math.min(count, chainsMin)));
                }
                return granted;
            }
            waited = true;
            Thread.sleep(SLICE_MILLIS);
        }
    }

    /** This bank's limit now ({@code chainsMin} for a bank not tracked). */
    public synchronized int limit(BankId bank) {
        BankLimit limit = banks.get(bank);
        return limit == null ? chainsMin : limit.limit;
    }

    /** Whether this bank's payments are held by its window (not while it answers nothing in time). */
    public synchronized boolean holds(BankId bank) {
        BankLimit limit = banks.get(bank);
        return limit == null || limit.answering;
    }

    private synchronized Map<BankId, Integer> rooms(long now, Map<BankId, Integer> wanted) {
        adjust(now);
        Map<BankId, Integer> granted = new LinkedHashMap<>();
        wanted.forEach((bank, count) -> {
            BankLimit limit = tracked(bank, now);
            if (!limit.answering) {
                granted.put(bank, count);
                return;
            }
            int room = limit.limit - pending.awaiting(bank);
            if (room < count) {
                limit.limited = true;
            }
            if (room > 0) {
                granted.put(bank, Math.min(room, count));
            }
        });
        return granted;
    }

    private BankLimit tracked(BankId bank, long now) {
        BankLimit limit = banks.get(bank);
        if (limit != null) {
            return limit;
        }
        if (banks.size() >= BANKS_MAX) {
            banks.values().removeIf(BankLimit::starting);
        }
        limit = new BankLimit(now);
        if (banks.size() < BANKS_MAX) {
            banks.put(bank, limit);
        }
        if (gauged.size() < BANKS_MAX && gauged.add(bank)) {
            Gauge.builder(LIMIT, this, window -> window.limit(bank))
                    .description("Chains instructed to this bank that may wait for its answers before clearing reserves"
                            + " more for it (follows its answers)")
                    .tag("bank", bank.toString())
                    .register(meters);
            Gauge.builder(HELD, this, window -> window.holds(bank) ? 1 : 0)
                    .description("1 while this bank's payments are held by its window; 0 while it answers nothing in"
                            + " time and others do (its payments go on, and expire)")
                    .tag("bank", bank.toString())
                    .register(meters);
        }
        return limit;
    }

    private void adjust(long now) {
        if (now - adjustedAtNanos < ADJUST_INTERVAL_NANOS) {
            return;
        }
        Map<BankId, AnswerTimes.Sample> samples = answerTimes.take();
        carriedNanos[carriedNext] = now - adjustedAtNanos;
        adjustedAtNanos = now;
        samples.keySet().forEach(bank -> tracked(bank, now));
        long banksInTime =
                samples.values().stream().filter(sample -> sample.inTime() > 0).count();
        banks.forEach((bank, limit) -> {
            AnswerTimes.Sample sample = samples.getOrDefault(bank, AnswerTimes.Sample.NONE);
            limit.adjust(now, sample, banksInTime - (sample.inTime() > 0 ? 1 : 0) > 0);
        });
        carriedNext = (carriedNext + 1) % CARRIED_INTERVALS;
    }
}
