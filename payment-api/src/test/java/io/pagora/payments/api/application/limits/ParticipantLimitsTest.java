package io.pagora.payments.api.application.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.settlement.domain.access.Caller;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link ParticipantLimits} on a clock the test moves: each participant's requests in flight and token bucket are
 * its own (one bank over its limits leaves the others untouched), a batch takes a token per payment, all or none,
 * Retry-After is when enough tokens will be back, and the participants tracked are bounded.
 */
class ParticipantLimitsTest {

    static final Caller A = Caller.bank(1);
    static final Caller B = Caller.bank(2);
    static final long MILLI = 1_000_000L;

    final AtomicLong nowNanos = new AtomicLong(-5_000 * MILLI); // nanoTime may be negative
    final ParticipantLimits limits = new ParticipantLimits(2, new ParticipantTokenBuckets(5, 10, 2, nowNanos::get));

    @Test
    void aParticipantPastItsRequestsInFlightIsRefusedAndTheOthersAreNot() {
        assertThat(limits.enter(A)).isEmpty();
        assertThat(limits.enter(A)).isEmpty();

        assertRefused(limits.enter(A), RefusalReason.PARTICIPANT_CONCURRENCY_LIMITED, 1);
        assertThat(limits.enter(B)).as("another participant is unaffected").isEmpty();

        limits.exit(A);
        assertThat(limits.enter(A)).as("a slot freed is a slot again").isEmpty();
        assertRefused(limits.enter(A), RefusalReason.PARTICIPANT_CONCURRENCY_LIMITED, 1);
    }

    @Test
    void aParticipantPastItsBucketIsRefusedUntilItRefillsAndTheOthersAreNot() {
        limits.enter(A);
        limits.enter(B);
        for (int i = 0; i < 5; i++) {
            assertThat(limits.take(A, 1)).as("payment %d of the burst", i).isEmpty();
        }
        assertRefused(limits.take(A, 1), RefusalReason.PARTICIPANT_RATE_LIMITED, 1);
        assertThat(limits.take(B, 5))
                .as("another participant's bucket is its own")
                .isEmpty();

        nowNanos.addAndGet(100 * MILLI); // 10 a second: one token back
        assertThat(limits.take(A, 1)).isEmpty();
        assertRefused(limits.take(A, 1), RefusalReason.PARTICIPANT_RATE_LIMITED, 1);
    }

    /** The early refusal (before the request is worked on) answers what take would, and takes nothing. */
    @Test
    void theRefusalOfOneIsTakesAnswerWithoutTakingAToken() {
        assertThat(limits.refusalOfOne(A))
                .as("a participant not tracked yet has a full bucket")
                .isEmpty();
        limits.enter(A);
        for (int i = 0; i < 4; i++) {
            assertThat(limits.take(A, 1)).isEmpty();
        }
        for (int i = 0; i < 3; i++) {
            assertThat(limits.refusalOfOne(A))
                    .as("one token left, however often asked")
                    .isEmpty();
        }
        assertThat(limits.take(A, 1))
                .as("the last token is still there to take")
                .isEmpty();

        Optional<Refusal> early = limits.refusalOfOne(A);
        assertRefused(early, RefusalReason.PARTICIPANT_RATE_LIMITED, 1);
        assertThat(early).isEqualTo(limits.take(A, 1));
        nowNanos.addAndGet(100 * MILLI);
        assertThat(limits.refusalOfOne(A)).as("a token back").isEmpty();
    }

    @Test
    void aBatchTakesATokenPerPaymentAllOrNoneAndIsToldWhenToRetry() {
        ParticipantLimits slow =
                new ParticipantLimits(2, new ParticipantTokenBuckets(5, 1, 2, nowNanos::get)); // 1 a second
        slow.enter(A);
        assertThat(slow.take(A, 4)).isEmpty();

        assertRefused(slow.take(A, 5), RefusalReason.PARTICIPANT_RATE_LIMITED, 4); // 1 left, 4 more in 4 s
        assertThat(slow.take(A, 1)).as("the refused batch took nothing").isEmpty();

        nowNanos.addAndGet(3_999 * MILLI);
        assertRefused(slow.take(A, 4), RefusalReason.PARTICIPANT_RATE_LIMITED, 1);
        nowNanos.addAndGet(MILLI);
        assertThat(slow.take(A, 4)).isEmpty();
        nowNanos.addAndGet(3_600_000 * MILLI);
        assertThat(slow.take(A, 5))
                .as("an idle hour fills the bucket, never beyond the burst")
                .isEmpty();
        assertRefused(slow.take(A, 1), RefusalReason.PARTICIPANT_RATE_LIMITED, 1);
    }

    @Test
    void theParticipantsTrackedAreBounded() {
        assertThat(limits.enter(A)).isEmpty();
        assertThat(limits.enter(B)).isEmpty();

        assertRefused(limits.enter(Caller.bank(3)), RefusalReason.OVERLOADED, 1);
        assertThat(limits.participants()).isEqualTo(2);
        assertThat(limits.enter(A)).as("the participants tracked go on").isEmpty();
    }

    private static void assertRefused(Optional<Refusal> refusal, RefusalReason type, long retryAfterSeconds) {
        assertThat(refusal).isPresent();
        assertThat(refusal.get().type()).isEqualTo(type);
        assertThat(refusal.get().retryAfterSeconds()).isEqualTo(retryAfterSeconds);
    }
}
