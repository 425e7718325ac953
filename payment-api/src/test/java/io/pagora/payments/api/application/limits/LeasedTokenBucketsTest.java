package io.pagora.payments.api.application.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pagora.settlement.domain.access.Caller;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The leasing behind switch-wide limits, on an in-memory store and a clock the test moves: instances lease from one
 * bucket per participant, so together they never grant more than its burst plus its refill; debts are written back
 * and outlive an instance; an idle holding goes back; the store out of reach leaves each instance its share.
 */
class LeasedTokenBucketsTest {

    static final Caller BANK = Caller.bank(1);
    static final long HOLD_MILLIS = 1_000;
    static final long FAIL_AFTER_MILLIS = 3_000;

    final AtomicLong clock = new AtomicLong(1_000_000_000L);
    final InMemorySharedLimitStore store = new InMemorySharedLimitStore(clock::get);

    /** One payment-api instance: its leaser (driven by the test, never waiting) and its payments bucket. */
    final class Instance {
        final LimitLeaser leaser = new LimitLeaser(
                store, UUID.randomUUID(), 10, HOLD_MILLIS, 1_000, 5_000, FAIL_AFTER_MILLIS, 0, clock::get);
        final LeasedTokenBuckets buckets;

        Instance(long burst, double refillPerSecond) {
            buckets = new LeasedTokenBuckets("payments", burst, refillPerSecond, 16, leaser, clock::get);
        }

        /**
         * One token taken: 0 if taken. A payment's wait for its lease, as the leaser's thread answers it: the
         * payment marks the bank active (asking when a token is there), the round leases, then the payment takes.
         */
        long takeOne() {
            if (!leaser.stale()) {
                buckets.secondsUntil(BANK, 1);
                leaser.tick();
            }
            return buckets.take(BANK, 1);
        }
    }

    /** Payments taken, alternating over the instances, until every one of them refuses (bounded). */
    static int takeUntilRefused(List<Instance> instances) {
        int taken = 0;
        for (int round = 0; round < 10_000; round++) {
            boolean any = false;
            for (Instance instance : instances) {
                if (instance.takeOne() == 0) {
                    taken++;
                    any = true;
                }
            }
            if (!any) {
                return taken;
            }
        }
        throw new AssertionError("never refused");
    }

    /** {@code count} instances that have each seen the others' heartbeats, then the bank's first payment. */
    List<Instance> started(int count, long burst, double refillPerSecond) {
        List<Instance> instances = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            instances.add(new Instance(burst, refillPerSecond));
        }
        instances.forEach(instance -> instance.leaser.tick());
        advanceMillis(1_000);
        instances.forEach(instance -> instance.leaser.tick());
        instances.forEach(instance -> assertThat(instance.leaser.instances()).isEqualTo(count));
        instances.forEach(instance -> instance.buckets.track(BANK));
        return instances;
    }

    void advanceMillis(long millis) {
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    @Test
    void twoInstancesTogetherGrantTheBurstOnceThenTheRefillOnce() {
        List<Instance> two = started(2, 10, 2);
        Instance a = two.get(0);
        Instance b = two.get(1);

        assertThat(takeUntilRefused(List.of(a, b)))
                .as("the burst, once for both")
                .isEqualTo(10);
        advanceMillis(500);
        assertThat(takeUntilRefused(List.of(a, b)))
                .as("half a second at 2 a second")
                .isEqualTo(1);
        advanceMillis(3_000);
        assertThat(takeUntilRefused(List.of(a, b))).as("3 s at 2 a second").isEqualTo(6);
    }

    @Test
    void oneInstanceAloneHoldsTheWholeBurstAsBefore() {
        Instance alone = started(1, 3, 1).get(0);

        assertThat(alone.takeOne()).isZero();
        assertThat(alone.buckets.take(BANK, 1))
                .as("the rest of the burst is held here, no round trip")
                .isZero();
        assertThat(alone.buckets.take(BANK, 1)).isZero();
        int rounds = store.leaseRounds;
        assertThat(alone.buckets.take(BANK, 1))
                .as("empty: a token back in a second")
                .isEqualTo(1);
        assertThat(alone.buckets.take(BANK, 3)).as("three at 1 a second").isEqualTo(3);
        assertThat(store.leaseRounds).as("a refusal asks the store nothing").isEqualTo(rounds);
    }

    @Test
    void aDebtIsWrittenBackAndARestartedInstanceInheritsIt() {
        Instance a = started(1, 3, 0.001).get(0);
        assertThat(a.takeOne()).isZero();
        a.buckets.takeIntoDebt(BANK, 10);
        a.leaser.tick();
        assertThat(store.tokens("payments", BANK.principalName()))
                .as("3 - 1 taken - 10 owed, 2 held back by a: 0 here")
                .isLessThan(-7.9);
        a.leaser.close();

        Instance restarted = new Instance(3, 0.001);
        restarted.leaser.tick();
        restarted.buckets.track(BANK);
        assertThat(restarted.takeOne())
                .as("the debt outlives the instance: 8 tokens at 1 per 1,000 s")
                .isGreaterThan(8_000);
    }

    @Test
    void anIdleHoldingGoesBackSoTheOtherInstanceGetsTheWholeBurst() {
        List<Instance> two = started(2, 10, 0.001);
        Instance a = two.get(0);
        Instance b = two.get(1);
        assertThat(a.takeOne()).isZero();
        assertThat(a.buckets.held(BANK)).as("half the burst: two instances").isEqualTo(4);

        advanceMillis(HOLD_MILLIS + 1);
        a.leaser.tick();
        assertThat(a.buckets.held(BANK)).as("idle: returned").isZero();
        assertThat(takeUntilRefused(List.of(b)))
                .as("the burst less the one a spent, all on b")
                .isEqualTo(9);
    }

    @Test
    void theStoreOutOfReachLeavesEachInstanceItsShare() {
        List<Instance> two = started(2, 10, 0.001);
        Instance a = two.get(0);
        Instance b = two.get(1);
        store.reachable = false;
        advanceMillis(FAIL_AFTER_MILLIS + 1);
        a.leaser.tick();
        b.leaser.tick();

        assertThat(a.leaser.stale()).isTrue();
        assertThat(a.leaser.failures()).isPositive();
        assertThat(takeUntilRefused(List.of(a, b)))
                .as("10 / 2 instances each, still 10 switch-wide")
                .isEqualTo(10);

        store.reachable = true;
        a.leaser.tick();
        assertThat(a.leaser.stale()).as("the store answers again").isFalse();
    }

    @Test
    void aLeaseThatDoesNotComeLeavesTheInstancesShareToDecide() {
        List<Instance> two = started(2, 10, 0.001);
        store.reachable = false;

        assertThat(two.get(0).leaser.stale())
                .as("not yet: the store answered a moment ago")
                .isFalse();
        int taken = 0;
        for (int i = 0; i < 20; i++) {
            taken += two.get(0).buckets.take(BANK, 1) == 0 ? 1 : 0;
        }
        assertThat(taken).as("no lease: this instance's share of 10 over 2").isEqualTo(5);
    }

    @Test
    void aBatchLargerThanAnInstancesShareIsLeasedForOnItsRetry() {
        List<Instance> four = started(4, 12, 0.001);
        Instance a = four.get(0);
        assertThat(a.takeOne()).isZero();
        assertThat(a.buckets.held(BANK)).as("a quarter of 12, one spent").isEqualTo(2);

        assertThat(a.buckets.take(BANK, 9))
                .as("the store holds them: retry in a second")
                .isEqualTo(1);
        a.leaser.tick();
        assertThat(a.buckets.take(BANK, 9))
                .as("the round leased what the batch needs")
                .isZero();
        assertThat(takeUntilRefused(four)).as("12 - 1 - 9 left, switch-wide").isEqualTo(2);
    }

    @Test
    void aHoldingWhoseReturnFailedIsLeasedAgainOnceTheBankIsBack() {
        Instance alone = started(1, 10, 0.001).get(0);
        assertThat(alone.takeOne()).isZero();
        assertThat(alone.buckets.held(BANK)).isEqualTo(9);
        advanceMillis(HOLD_MILLIS + 1);
        store.reachable = false;
        alone.leaser.tick();
        assertThat(alone.buckets.held(BANK))
                .as("the return failed: the tokens are this instance's again")
                .isEqualTo(9);

        store.reachable = true;
        assertThat(alone.takeOne()).isZero();
        assertThat(alone.buckets.held(BANK))
                .as("the payment spent the holding, not the fallback share (which waits"
                        + " for a lease on every payment)")
                .isEqualTo(8);
        assertThat(alone.buckets.take(BANK, 1)).as("leased: no round needed").isZero();
        assertThat(alone.buckets.held(BANK)).isEqualTo(7);
    }

    @Test
    void oneInstanceHoldingItsTokensWhileTheStoreRefillsAdmitsNoMoreThanTheBurstAtOnce() {
        long burst = 100;
        double refillPerSecond = 10;
        Instance alone = started(1, burst, refillPerSecond).get(0);
        long startedNanos = clock.get();
        int admitted = 0;
        for (int trickle = 0; trickle < 10; trickle++) {
            admitted += alone.takeOne() == 0 ? 1 : 0;
            advanceMillis(900);
        }
        assertThat(admitted).as("a trickle well below the refill: all admitted").isEqualTo(10);

        int atOnce = takeUntilRefused(List.of(alone));
        admitted += atOnce;
        double elapsedSeconds = (clock.get() - startedNanos) / 1e9;
        assertThat(atOnce)
                .as("a burst with no time passing: the bucket holds the burst at most")
                .isLessThanOrEqualTo((int) burst);
        assertThat((double) admitted)
                .as("admitted over the whole run: the burst plus the refill of %.1f s", elapsedSeconds)
                .isLessThanOrEqualTo(burst + refillPerSecond * elapsedSeconds);
    }

    @Test
    void aHoldingSpentToNothingThenIdleNoLongerKeepsTheBucketFromRefilling() {
        Instance alone = started(1, 10, 1).get(0);
        assertThat(alone.takeOne()).isZero();
        for (int i = 0; i < 9; i++) {
            assertThat(alone.buckets.take(BANK, 1))
                    .as("the holding, spent with no round between")
                    .isZero();
        }
        advanceMillis(HOLD_MILLIS + 1);
        alone.leaser.tick();
        for (int second = 0; second < 10; second++) {
            advanceMillis(1_000);
            alone.leaser.tick();
        }
        assertThat(alone.leaser.stale()).isFalse();

        assertThat(takeUntilRefused(List.of(alone)))
                .as("10 s at 1 a second: the whole burst again")
                .isEqualTo(10);
    }

    @Test
    void twoInstancesHoldingTheirSharesWhileTheStoreRefillsAdmitNoMoreThanTheBurstAtOnce() {
        List<Instance> two = started(2, 100, 10);
        for (int trickle = 0; trickle < 10; trickle++) {
            two.forEach(instance -> assertThat(instance.takeOne()).isZero());
            advanceMillis(900);
        }
        assertThat(takeUntilRefused(two))
                .as("a burst with no time passing, over both: the burst at most")
                .isLessThanOrEqualTo(100);
    }

    @Test
    void aPaymentOnAVirtualThreadWaitingForItsLeaseGoesOnWhenTheRoundAnswers() throws Exception {
        LimitLeaser leaser = new LimitLeaser(
                store, UUID.randomUUID(), 10, HOLD_MILLIS, 1_000, 5_000, FAIL_AFTER_MILLIS, 10_000, clock::get);
        LeasedTokenBuckets buckets = new LeasedTokenBuckets("payments", 10, 0.001, 16, leaser, clock::get);
        leaser.tick();
        buckets.track(BANK);
        java.util.concurrent.CompletableFuture<Long> taken = new java.util.concurrent.CompletableFuture<>();
        Thread payment = Thread.ofVirtual().start(() -> taken.complete(buckets.take(BANK, 1)));
        await().atMost(Duration.ofSeconds(10))
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(1))
                .until(() ->
                        payment.getState() == Thread.State.WAITING || payment.getState() == Thread.State.TIMED_WAITING);
        assertThat(payment.getState())
                .as("waiting for its lease")
                .isIn(Thread.State.WAITING, Thread.State.TIMED_WAITING);

        leaser.tick();
        assertThat(taken.get(5, TimeUnit.SECONDS))
                .as("woken by the answer, well before its 10 s bound")
                .isZero();
        assertThat(buckets.held(BANK)).as("spent from the lease").isEqualTo(9);
    }

    @Test
    void eachOfTheLiveInstancesAllowsItsShareOfTheRequestsInFlight() {
        List<Instance> two = started(2, 10, 1);
        Instance a = two.get(0);
        Instance b = two.get(1);
        ParticipantLimits limitsA = new ParticipantLimits(2, a.buckets, a.leaser::instances);
        ParticipantLimits limitsB = new ParticipantLimits(2, b.buckets, b.leaser::instances);

        assertThat(limitsA.enter(BANK)).isEmpty();
        assertThat(limitsA.enter(BANK)).as("1 of 2 here").isNotEmpty();
        assertThat(limitsB.enter(BANK)).as("the other 1 there").isEmpty();
        limitsA.exit(BANK);
        assertThat(limitsA.enter(BANK)).isEmpty();
    }
}
