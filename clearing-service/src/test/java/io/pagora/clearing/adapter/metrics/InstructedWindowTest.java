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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The instructed windows, one per receiving bank: a part of a poll goes on at once with the room under each bank's limit,
 * a full window holds its bank's requests until answers (or expiries) free room and never past its bound, while the
 * banks with room go on; a limit starts small, grows while it holds polls back and the answers come in time, and
 * halves when they come late, for its bank alone; a bank that answers nothing in time is not held. Time is the test's:
 * one clock for the chains' ages and the window's intervals.
 */
class InstructedWindowTest {

    static final BankId BANK = new BankId(10002222);
    static final Duration PENDING_TIMEOUT = Duration.ofSeconds(2);
    static final int MIN = 4;
    static final int MAX = 40;
    static final Duration ROUND_MIN = Duration.ofMillis(250);
    static final long INTERVAL_NANOS = InstructedWindow.ADJUST_INTERVAL_NANOS;
    static final BankId DOWN = new BankId(10004444);
    static final BankId OTHER = new BankId(10003333);

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
                PENDING_TIMEOUT,
                waitMax,
                nanos::getAndIncrement,
                registry);
    }

    @Test
    void aRestartedProcessReservesOnlyTheMinimumOfABacklogPoll() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));

        assertThat(room(window.poll(), 2729))
                .as("a poll of an outage's backlog, nothing instructed yet")
                .isEqualTo(MIN);
        assertThat(room(window.poll(), 3)).as("a smaller poll whole").isEqualTo(3);
        assertThat(registry.get(InstructedWindow.WAIT).timer().count())
                .as("no wait recorded")
                .isZero();
    }

    @Test
    void aFullWindowHoldsThePartUntilAnswersFreeIt() throws Exception {
        InstructedWindow window = window(Duration.ofSeconds(30));
        reserve(room(window.poll(), 100));

        CompletableFuture<Integer> part = CompletableFuture.supplyAsync(() -> {
            try {
                return room(window.poll(), 100);
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
                PENDING_TIMEOUT,
                Duration.ofMillis(150),
                System::nanoTime,
                registry);
        reserve(room(window.poll(), 100));

        long started = System.nanoTime();
        assertThat(room(window.poll(), 100))
                .as("after the bound, the minimum goes on")
                .isEqualTo(MIN);

        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .isBetween(Duration.ofMillis(150), Duration.ofSeconds(5));
    }

    @Test
    void thePartsOfAPollShareOneBoundedWait() throws InterruptedException {
        InstructedWindow window = window(Duration.ofNanos(10));
        reserve(room(window.poll(), 100)); // the window full, and no answer coming
        InstructionWindow.Poll poll = window.poll();

        assertThat(room(poll, 100)).as("the first part, after the poll's wait").isEqualTo(MIN);
        assertThat(room(poll, 96)).as("the next part at once").isEqualTo(MIN);
        assertThat(registry.get(InstructedWindow.WAIT).timer().count())
                .as("one wait for the poll, not one per part")
                .isEqualTo(1);
    }

    @Test
    void theLimitGrowsByHalfWhileItHoldsPollsBackAndTheAnswersComeInTimeUpToItsMaximum() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        int[] limits = new int[8];
        for (int round = 0; round < limits.length; round++) {
            List<Long> part = reserve(room(window.poll(), 1000)); // always more than the room: the limit holds back
            answer(part, Duration.ofMillis(100)); // answered in a tenth of the timeout
            elapse(INTERVAL_NANOS);
            room(window.poll(), 1); // the next part asks: the interval is over, the limit adjusts
            limits[round] = window.limit(BANK);
        }
        assertThat(limits)
                .as("4 grows by half each interval it held a poll back, to 40")
                .containsExactly(6, 9, 13, 19, 28, 40, 40, 40);
    }

    @Test
    void aLimitNotReachedDoesNotGrow() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        for (int round = 0; round < 5; round++) {
            List<Long> part = reserve(room(window.poll(), 2)); // a trickle below the limit
            answer(part, Duration.ofMillis(100));
            elapse(INTERVAL_NANOS);
        }
        assertThat(window.limit(BANK))
                .as("a burst after a quiet hour meets the limit it earned, not more")
                .isEqualTo(MIN);
    }

    @Test
    void lateAnswersHalveTheLimitOnceThenItHoldsForTheHoldTime() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        growTo(window, MAX);

        List<Long> part = reserve(room(window.poll(), 1000));
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
            answer(reserve(room(window.poll(), 1000)), Duration.ofMillis(800)); // in time, not late
            assertThat(limitAfter(window, INTERVAL_NANOS))
                    .as("held %d ms, within the round", 250 * interval)
                    .isEqualTo(13);
        }
        answer(reserve(room(window.poll(), 1000)), Duration.ofMillis(800));
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
            waiting.addAll(reserve(room(window.poll(), 1000)));
            List<Long> oldest = List.copyOf(waiting.subList(0, 5)); // the path answers 5 a quarter-second: 20/s
            waiting.removeAll(oldest);
            answer(oldest, Duration.ofMillis(100));
            elapse(INTERVAL_NANOS);
        }
        room(window.poll(), 1);

        // 20 (the readings of the test's time add a few nanoseconds to the second: 19.99...)
        assertThat(window.limit(BANK))
                .as("20 answers a second in time, for 1 s: half the 2 s timeout")
                .isBetween(19, 20);
    }

    @Test
    void expiriesOfABankThatAnswersInTimeAreLateAndHalveTheLimit() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        growTo(window, MAX);

        List<Long> expiring = reserve(10); // answered after the timeout: the switch's own queue
        List<Long> answered = reserve(room(window.poll(), 1000));
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
        List<Long> answered = reserve(room(window.poll(), 1000));
        answer(answered, Duration.ofMillis(200));
        answer(unanswered, PENDING_TIMEOUT);
        assertThat(limitAfter(window, INTERVAL_NANOS))
                .as("3 expired of 40: under the threshold")
                .isEqualTo(MAX);
    }

    @Test
    void expiriesOfABankThatIsDownDoNotCloseTheWindowOfTheBanksThatAnswer() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        growTo(window, MAX);

        List<Long> unanswered = reserve(20, DOWN); // a bank that is down: all its chains expire
        List<Long> answered = reserve(room(window.poll(), 1000));
        answer(answered, Duration.ofMillis(200));
        answer(unanswered, PENDING_TIMEOUT.plusSeconds(1)); // the expiry path resolves the others
        assertThat(limitAfter(window, INTERVAL_NANOS)).isEqualTo(MAX);
        assertThat(window.limit(DOWN)).as("the down bank's own window").isEqualTo(MIN);
    }

    @Test
    void aBankThatAnswersLateHalvesItsOwnLimitAndNotTheOthers() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        growTo(window, MAX, BANK, OTHER);

        InstructionWindow.Poll poll = window.poll();
        List<Long> slow = reserve(room(poll, 1000, BANK));
        List<Long> quick = reserve(room(poll, 1000, OTHER), OTHER);
        answer(quick, Duration.ofMillis(100));
        answer(slow, Duration.ofMillis(1400)); // after half the pending timeout: late
        elapse(INTERVAL_NANOS);
        room(window.poll(), 1, OTHER);

        assertThat(window.limit(BANK)).as("the late bank's").isEqualTo(MAX / 2);
        assertThat(window.limit(OTHER))
                .as("the bank answering in time keeps its")
                .isEqualTo(MAX);
    }

    @Test
    void aPartGoesOnAtOnceForTheBanksWithRoomWhileAFullBankWaits() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        reserve(room(window.poll(), 100)); // BANK's window full, no answer coming

        Map<BankId, Integer> wanted = new LinkedHashMap<>();
        wanted.put(BANK, 10);
        wanted.put(OTHER, 3);
        assertThat(window.poll().awaitRoom(wanted))
                .as("the bank with room, alone, without waiting")
                .containsExactly(Map.entry(OTHER, 3));
        assertThat(registry.get(InstructedWindow.WAIT).timer().count())
                .as("no wait recorded")
                .isZero();
    }

    @Test
    void whenNoBankHasRoomThePollsBoundGivesEachTheMinimum() throws InterruptedException {
        InstructedWindow window = window(Duration.ofNanos(10));
        InstructionWindow.Poll first = window.poll();
        reserve(room(first, 100));
        reserve(room(first, 100, OTHER), OTHER);

        Map<BankId, Integer> wanted = new LinkedHashMap<>();
        wanted.put(BANK, 100);
        wanted.put(OTHER, 2);
        assertThat(window.poll().awaitRoom(wanted)).containsExactly(Map.entry(BANK, MIN), Map.entry(OTHER, 2));
    }

    @Test
    void aBankSilentForAPendingTimeoutWhileOthersAnswerIsNotHeldUntilItAnswersInTimeAgain()
            throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        List<Long> expiring = reserve(room(window.poll(), 100, DOWN), DOWN);
        reserve(MIN, DOWN); // its window full
        elapse(PENDING_TIMEOUT.toNanos()); // silent for a pending timeout
        clock.advance(PENDING_TIMEOUT.plusSeconds(1));
        pending.resolved(expiring.stream().map(InstructedWindowTest::id).toList()); // the expiry path
        answerInTime(OTHER); // while another bank answers in time

        Map<BankId, Integer> wanted = new LinkedHashMap<>();
        wanted.put(DOWN, 1000);
        assertThat(window.poll().awaitRoom(wanted))
                .as("its payments can only expire: held, they would hold the poll")
                .containsExactly(Map.entry(DOWN, 1000));
        assertThat(window.holds(DOWN)).isFalse();
        assertThat(registry.get(InstructedWindow.HELD)
                        .tag("bank", DOWN.toString())
                        .gauge()
                        .value())
                .isZero();

        answer(reserve(2, DOWN), Duration.ofMillis(100)); // back: it answers in time
        elapse(INTERVAL_NANOS);
        Map<BankId, Integer> both = new LinkedHashMap<>();
        both.put(DOWN, 1000);
        both.put(OTHER, 1);
        assertThat(window.poll().awaitRoom(both))
                .as("held again: its window is full of the chains reserved while it was down")
                .containsExactly(Map.entry(OTHER, 1));
        assertThat(window.holds(DOWN)).isTrue();
    }

    @Test
    void aStrayExpiryOfABankThatAnsweredInTimeLatelyDoesNotReleaseIt() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        List<Long> stray = reserve(1, DOWN);
        answer(reserve(2, DOWN), Duration.ofMillis(100)); // answered in time
        elapse(INTERVAL_NANOS);
        room(window.poll(), 1, DOWN);

        answer(stray, PENDING_TIMEOUT.plusSeconds(1)); // then, in an interval of its own, one expiry
        answerInTime(OTHER);
        elapse(INTERVAL_NANOS);
        room(window.poll(), 1, OTHER);

        assertThat(window.holds(DOWN))
                .as("it answered in time less than a pending timeout ago")
                .isTrue();
    }

    @Test
    void whenNoBankAnswersInTimeEveryBankStaysHeld() throws InterruptedException {
        InstructedWindow window = window(Duration.ofSeconds(30));
        List<Long> expiring = new ArrayList<>(reserve(room(window.poll(), 100, DOWN), DOWN));
        expiring.addAll(reserve(room(window.poll(), 100, OTHER), OTHER));
        elapse(PENDING_TIMEOUT.toNanos() * 3);
        answer(expiring, PENDING_TIMEOUT.plusSeconds(1)); // this process, or the answer path, is behind
        elapse(INTERVAL_NANOS);
        room(window.poll(), 1, BANK);

        assertThat(window.holds(DOWN)).isTrue();
        assertThat(window.holds(OTHER)).isTrue();
    }

    /** {@code bank} answers one chain in time, and the next interval's question reads it. */
    private void answerInTime(BankId bank) throws InterruptedException {
        answer(reserve(1, bank), Duration.ofMillis(100));
    }

    private void growTo(InstructedWindow window, int limit, BankId... banks) throws InterruptedException {
        List<BankId> grown = banks.length == 0 ? List.of(BANK) : List.of(banks);
        for (int round = 0; round < 20 && grown.stream().anyMatch(bank -> window.limit(bank) < limit); round++) {
            InstructionWindow.Poll poll = window.poll();
            List<Long> part = new ArrayList<>();
            for (BankId bank : grown) {
                part.addAll(reserve(room(poll, 1000, bank), bank));
            }
            answer(part, Duration.ofMillis(100));
            elapse(INTERVAL_NANOS);
            for (BankId bank : grown) {
                room(window.poll(), 1, bank);
            }
        }
        for (BankId bank : grown) {
            assertThat(window.limit(bank)).as("%s grown", bank).isEqualTo(limit);
        }
        answerTimes.take();
    }

    /** The room granted to {@link #BANK} alone. */
    private static int room(InstructionWindow.Poll poll, int wanted) throws InterruptedException {
        return room(poll, wanted, BANK);
    }

    private static int room(InstructionWindow.Poll poll, int wanted, BankId bank) throws InterruptedException {
        Map<BankId, Integer> granted = poll.awaitRoom(Map.of(bank, wanted));
        assertThat(granted).containsOnlyKeys(bank);
        return granted.get(bank);
    }

    /** The test's clock moves on by {@code after}, then these chains are resolved (answered, or expired). */
    private void answer(List<Long> chains, Duration after) {
        clock.advance(after);
        pending.resolved(chains.stream().map(InstructedWindowTest::id).toList());
    }

    /** The limit once the next part asked, {@code nanosElapsed} later. */
    private int limitAfter(InstructedWindow window, long nanosElapsed) throws InterruptedException {
        elapse(nanosElapsed);
        room(window.poll(), 1);
        return window.limit(BANK);
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
