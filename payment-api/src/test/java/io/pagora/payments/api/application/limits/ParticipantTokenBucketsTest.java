package io.pagora.payments.api.application.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.kernel.Check;
import io.pagora.settlement.domain.access.Caller;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The one per-participant token bucket (behind the payment rate and the unknown-account limit): burst, refill,
 * all-or-none takes, debt, the wait in whole seconds, bounded memory that never forgets a participant.
 */
class ParticipantTokenBucketsTest {

    final AtomicLong nanos = new AtomicLong(-7_000_000_000L); // nanoTime may be negative
    final Caller bank = Caller.bank(1);
    final Caller other = Caller.bank(2);

    @Test
    void aBurstThenOneTokenPerRefill() {
        ParticipantTokenBuckets buckets = tracking(new ParticipantTokenBuckets(3, 0.5, 10, nanos::get));
        for (int i = 0; i < 3; i++) {
            assertThat(buckets.secondsUntil(bank, 1)).isZero();
            buckets.takeIntoDebt(bank, 1);
        }
        assertThat(buckets.secondsUntil(bank, 1)).isEqualTo(2);
        assertThat(buckets.secondsUntil(other, 1))
                .as("each participant its own bucket")
                .isZero();
        nanos.addAndGet(2_000_000_000L);
        assertThat(buckets.secondsUntil(bank, 1)).isZero();
        nanos.addAndGet(3_600_000_000_000L);
        buckets.takeIntoDebt(bank, 3);
        assertThat(buckets.secondsUntil(bank, 1))
                .as("refilled up to the burst, never beyond")
                .isPositive();
    }

    @Test
    void aDebtIsPaidBackBeforeTheNextToken() {
        ParticipantTokenBuckets buckets = tracking(new ParticipantTokenBuckets(2, 1, 10, nanos::get));
        buckets.takeIntoDebt(bank, 12);
        assertThat(buckets.secondsUntil(bank, 1)).isEqualTo(11);
        nanos.addAndGet(10_000_000_000L);
        assertThat(buckets.secondsUntil(bank, 1)).isEqualTo(1);
        nanos.addAndGet(1_000_000_000L);
        assertThat(buckets.secondsUntil(bank, 1)).isZero();
    }

    @Test
    void aTakeIsAllOrNoneAndSaysWhenEnoughAreBack() {
        ParticipantTokenBuckets buckets = tracking(new ParticipantTokenBuckets(5, 1, 10, nanos::get));
        assertThat(buckets.take(bank, 4)).isZero();
        assertThat(buckets.take(bank, 5)).as("1 left, 4 more in 4 s").isEqualTo(4);
        assertThat(buckets.take(bank, 1)).as("the refused take took nothing").isZero();
        nanos.addAndGet(3_999_000_000L);
        assertThat(buckets.take(bank, 4))
                .as("a wait is rounded up to whole seconds")
                .isEqualTo(1);
        nanos.addAndGet(1_000_000L);
        assertThat(buckets.take(bank, 4)).isZero();
    }

    /** Other participants coming and going never reset one's debt (a forgotten bucket would start full again). */
    @Test
    void aParticipantIsNeverForgotten() {
        ParticipantTokenBuckets buckets = tracking(new ParticipantTokenBuckets(1, 1, 2, nanos::get));
        buckets.takeIntoDebt(bank, 5);
        for (int ispb = 3; ispb <= 100; ispb++) {
            buckets.track(Caller.bank(ispb));
        }
        assertThat(buckets.secondsUntil(bank, 1)).as("still in debt").isEqualTo(5);
    }

    @Test
    void memoryIsBounded() {
        ParticipantTokenBuckets buckets = new ParticipantTokenBuckets(1, 1, 2, nanos::get);
        List<Boolean> tracked = new ArrayList<>();
        for (int ispb = 1; ispb <= 100; ispb++) {
            tracked.add(buckets.track(Caller.bank(ispb)));
        }
        assertThat(tracked.subList(0, 2)).containsOnly(true);
        assertThat(tracked.subList(2, 100)).containsOnly(false);
        assertThat(buckets.participants()).isEqualTo(2);
        assertThat(buckets.track(Caller.bank(1)))
                .as("a tracked participant stays tracked")
                .isTrue();
        assertThatThrownBy(() -> buckets.take(Caller.bank(3), 1)).isInstanceOf(Check.InvariantViolation.class);
    }

    /** Concurrent takes never spend a token twice: exactly the burst is served on a stopped clock. */
    @Test
    void concurrentTakesServeExactlyTheBurst() throws Exception {
        ParticipantTokenBuckets buckets = tracking(new ParticipantTokenBuckets(1_000, 1, 10, nanos::get));
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> served = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                served.add(threads.submit(() -> {
                    int taken = 0;
                    for (int i = 0; i < 1_000; i++) {
                        taken += buckets.take(bank, 1) == 0 ? 1 : 0;
                    }
                    return taken;
                }));
            }
            int total = 0;
            for (Future<Integer> f : served) {
                total += f.get();
            }
            assertThat(total).isEqualTo(1_000);
        } finally {
            threads.shutdownNow();
        }
    }

    private ParticipantTokenBuckets tracking(ParticipantTokenBuckets buckets) {
        assertThat(buckets.track(bank)).isTrue();
        assertThat(buckets.track(other)).isTrue();
        return buckets;
    }
}
