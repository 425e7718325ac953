package io.pagora.clearing.adapter.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pagora.clearing.application.participants.InstructionWindow;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The instructed window: a part of a poll goes on at once with the room under the limit, a full window holds it until
 * answers (or expiries) free room and never past its bound; the limit starts small, grows while it holds polls back
 * and the answers come in time, and halves when they come late. Time is the test's: one clock for the chains' ages
 * and the window's intervals.
 */
class InstructedWindowTest {

    static final BankId BANK = new BankId(10002222);
    static final Duration PENDING_TIMEOUT = Duration.ofSeconds(2);
    static final int MIN = 4;
    static final int MAX = 40;
    static final Duration ROUND_MIN = Duration.ofMillis(250);
    static final long INTERVAL_NANOS = InstructedWindow.ADJUST_INTERVAL_NANOS;
    static final BankId DOWN = new BankId(10004444);

    final PendingChainsTest.MutableClock clock =
            new PendingChainsTest.MutableClock(Instant.parse("2026-11-28T12:00:00Z"));
    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final AnswerTimes answerTimes = new AnswerTimes(PENDING_TIMEOUT.dividedBy(2), PENDING_TIMEOUT);
    final PendingChains pending = new PendingChains(clock, Duration.ofMinutes(1), 1000, registry, answerTimes);
    long nextId = 1;

    InstructedWindow window(Duration waitMax) {
        // Each reading of the test's time moves it on by a nanosecond, so that a bounded wait ends.
        return new InstructedWindow(
                pending,
                answerTimes,
                MIN,
                MAX,
                ROUND_MIN,
                PENDING_TIMEOUT.dividedBy(2),
                waitMax,
                nanos::getAndIncrement,
                registry);
    }

    @Test
    void aRestartedProcessReservesOnlyTheMinimumOfABacklogPoll() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));

        assertThat(window.poll().awaitRoom(2729))
                .as("a poll of an outage's backlog, nothing instructed yet")
                .isEqualTo(MIN);
        assertThat(window.poll().awaitRoom(3)).as("a smaller poll whole").isEqualTo(3);
        assertThat(registry.get(InstructedWindow.WAIT).timer().count())
                .as("no wait recorded")
                .isZero();
    }

    @Test
    void aFullWindowHoldsThePartUntilAnswersFreeIt() throws Exception {
        InstructedWindow window = window(Duration.ofSeconds(30));
        reserve(window.poll().awaitRoom(100));

        CompletableFuture<Integer> part = CompletableFuture.supplyAsync(() -> {
            try {
                return window.poll().awaitRoom(100);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await("held while the window's " + MIN + " chains wait")
                .during(Duration.ofMillis(200))
                .atMost(Duration.ofSeconds(1))
                .until(() -> !part.isDone());
        pending.resolved(List.of(id(2)));

        assertThat(part.get(5, TimeUnit.SECONDS))
                .as("the room one answer freed")
                .isEqualTo(1);
        assertThat(registry.get(InstructedWindow.WAIT).timer().count()).isEqualTo(1);
    }

    @Test
    void aWindowThatStaysFullHoldsThePartNoLongerThanItsBound() throws InterruptedException {
        InstructedWindow window = new InstructedWindow(
                pending,
                answerTimes,
                MIN,
                MAX,
                ROUND_MIN,
                Duration.ZERO,
                Duration.ofMillis(150),
                System::nanoTime,
                registry);
        reserve(window.poll().awaitRoom(100));

        long started = System.nanoTime();
        assertThat(window.poll().awaitRoom(100))
                .as("after the bound, the minimum goes on")
                .isEqualTo(MIN);

        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .isBetween(Duration.ofMillis(150), Duration.ofSeconds(5));
    }

    @Test
    void thePartsOfAPollShareOneBoundedWait() throws InterruptedException {
        InstructedWindow window = window(Duration.ofNanos(10));
        reserve(window.poll().awaitRoom(100)); // the window full, and no answer coming
        InstructionWindow.Poll poll = window.poll();

        assertThat(poll.awaitRoom(100))
                .as("the first part, after the poll's wait")
                .isEqualTo(MIN);
        assertThat(poll.awaitRoom(96)).as("the next part at once").isEqualTo(MIN);
        assertThat(registry.get(InstructedWindow.WAIT).timer().count())
                .as("one wait for the poll, not one per part")
                .isEqualTo(1);
    }

    @Test
    void theLimitGrowsByHalfWhileItHoldsPollsBackAndTheAnswersComeInTimeUpToItsMaximum() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        int[] limits = new int[8];
        for (int round = 0; round < limits.length; round++) {
            List<Long> part = reserve(window.poll().awaitRoom(1000)); // always more than the room: the limit holds back
            answer(part, Duration.ofMillis(100)); // answered in a tenth of the timeout
            elapse(INTERVAL_NANOS);
            window.poll().awaitRoom(1); // the next part asks: the interval is over, the limit adjusts
            limits[round] = window.limit();
        }
        assertThat(limits)
                .as("4 grows by half each interval it held a poll back, to 40")
                .containsExactly(6, 9, 13, 19, 28, 40, 40, 40);
    }

    @Test
    void aLimitNotReachedDoesNotGrow() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        for (int round = 0; round < 5; round++) {
            List<Long> part = reserve(window.poll().awaitRoom(2)); // a trickle below the limit
            answer(part, Duration.ofMillis(100));
            elapse(INTERVAL_NANOS);
        }
        assertThat(window.limit())
                .as("a burst after a quiet hour meets the limit it earned, not more")
                .isEqualTo(MIN);
    }

    @Test
    void lateAnswersHalveTheLimitOnceThenItHoldsForTheHoldTime() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        growTo(window, MAX);

        List<Long> part = reserve(window.poll().awaitRoom(1000));
        answer(part, Duration.ofMillis(1500)); // three quarters of the pending timeout: late
        assertThat(limitAfter(window, INTERVAL_NANOS)).as("halved").isEqualTo(MAX / 2);

        List<Long> reservedBefore = reserve(MAX / 2 - 1);
        answer(reservedBefore, Duration.ofMillis(1500));
        assertThat(limitAfter(window, INTERVAL_NANOS))
                .as("late again within the hold: chains reserved before the decrease")
                .isEqualTo(MAX / 2);

        List<Long> later = reserve(MAX / 2 - 1);
        answer(later, Duration.ofMillis(1500));
        assertThat(limitAfter(window, PENDING_TIMEOUT.dividedBy(2).toNanos()))
                .as("still late after the hold: halved again")
                .isEqualTo(MAX / 4);
    }

    @Test
    void itGrowsAtMostOncePerRoundOfAnswers() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        growTo(window, 13);
        for (int interval = 1; interval <= 3; interval++) { // 750 ms: less than the round the answers take
            answer(reserve(window.poll().awaitRoom(1000)), Duration.ofMillis(800)); // in time, not late
            assertThat(limitAfter(window, INTERVAL_NANOS))
                    .as("held %d ms, within the round", 250 * interval)
                    .isEqualTo(13);
        }
        answer(reserve(window.poll().awaitRoom(1000)), Duration.ofMillis(800));
        assertThat(limitAfter(window, INTERVAL_NANOS))
                .as("a round after it last grew")
                .isEqualTo(19);
    }

    @Test
    void theLimitNeverExceedsWhatTheAnswersCarriedWithinHalfTheTimeout() throws InterruptedException {
        InstructedWindow window = window(Duration.ofNanos(10)); // the last question finds the window over its limit
        growTo(window, MAX);
        List<Long> waiting = new ArrayList<>();
        for (int interval = 0; interval < InstructedWindow.CARRIED_INTERVALS; interval++) {
            waiting.addAll(reserve(window.poll().awaitRoom(1000)));
            List<Long> oldest = List.copyOf(waiting.subList(0, 5)); // the path answers 5 a quarter-second: 20/s
            waiting.removeAll(oldest);
            answer(oldest, Duration.ofMillis(100));
            elapse(INTERVAL_NANOS);
        }
        window.poll().awaitRoom(1);

        // 20 (the readings of the test's time add a few nanoseconds to the second: 19.99...)
        assertThat(window.limit())
                .as("20 answers a second in time, for 1 s: half the 2 s timeout")
                .isBetween(19, 20);
    }

    @Test
    void expiriesOfABankThatAnswersInTimeAreLateAndHalveTheLimit() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        growTo(window, MAX);

        List<Long> expiring = reserve(10); // answered after the timeout: the switch's own queue
        List<Long> answered = reserve(window.poll().awaitRoom(1000));
        answer(answered, Duration.ofMillis(200));
        answer(expiring, PENDING_TIMEOUT);
        assertThat(limitAfter(window, INTERVAL_NANOS))
                .as("10 expired of 40 resolutions of a bank that answers")
                .isEqualTo(MAX / 2);
    }

    @Test
    void aFewUnansweredPaymentsOfAnAnsweringBankDoNotCloseTheWindow() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        growTo(window, MAX);

        List<Long> unanswered = reserve(3); // the bank leaves some payments unanswered: they expire
        List<Long> answered = reserve(window.poll().awaitRoom(1000));
        answer(answered, Duration.ofMillis(200));
        answer(unanswered, PENDING_TIMEOUT);
        assertThat(limitAfter(window, INTERVAL_NANOS))
                .as("3 expired of 40: under the threshold")
                .isEqualTo(MAX);
    }

    @Test
    void expiriesOfABankThatIsDownDoNotCloseTheWindowOnTheBanksThatAnswer() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        growTo(window, MAX);

        List<Long> unanswered = reserve(20, DOWN); // a bank that is down: all its chains expire
        List<Long> answered = reserve(window.poll().awaitRoom(1000));
        answer(answered, Duration.ofMillis(200));
        answer(unanswered, PENDING_TIMEOUT.plusSeconds(1)); // the expiry path resolves the others
        assertThat(limitAfter(window, INTERVAL_NANOS)).isEqualTo(MAX);
    }

    private void growTo(InstructedWindow window, int limit) throws InterruptedException {
        for (int round = 0; round < 20 && window.limit() < limit; round++) {
            List<Long> part = reserve(window.poll().awaitRoom(1000));
            answer(part, Duration.ofMillis(100));
            elapse(INTERVAL_NANOS);
            window.poll().awaitRoom(1);
        }
        assertThat(window.limit()).isEqualTo(limit);
        answerTimes.take();
    }

    /** The test's clock moves on by {@code after}, then these chains are resolved (answered, or expired). */
    private void answer(List<Long> chains, Duration after) {
        clock.advance(after);
        pending.resolved(chains.stream().map(InstructedWindowTest::id).toList());
    }

    /** The limit once the next part asked, {@code nanosElapsed} later. */
    private int limitAfter(InstructedWindow window, long nanosElapsed) throws InterruptedException {
        elapse(nanosElapsed);
        window.poll().awaitRoom(1);
        return window.limit();
    }

    private void elapse(long nanosElapsed) {
        nanos.addAndGet(nanosElapsed);
    }

    private List<Long> reserve(int count) {
        return reserve(count, BANK);
    }

    private List<Long> reserve(int count, BankId bank) {
        List<Long> ids = LongStream.range(nextId, nextId + count).boxed().toList();
        nextId += count;
        pending.reserved(
                ids.stream().map(n -> new PendingChains.Chain(id(n), bank)).toList());
        return ids;
    }

    private static PaymentId id(long n) {
        return new PaymentId(new Id128(1, n << 8));
    }
}
