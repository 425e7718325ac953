package io.pagora.payments.api.application;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.settlement.domain.Caller;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The per-participant token bucket behind the unknown-account limit: burst, refill, debt, bounded memory. */
class ParticipantTokenBucketsTest {

    final AtomicLong nanos = new AtomicLong();
    final Caller bank = Caller.bank(1);
    final Caller other = Caller.bank(2);

    @Test
    void aBurstThenOneTokenPerRefill() {
        ParticipantTokenBuckets buckets = new ParticipantTokenBuckets(3, 0.5, 10, nanos::get);
        for (int i = 0; i < 3; i++) {
            assertThat(buckets.hasToken(bank)).isTrue();
            buckets.take(bank, 1);
        }
        assertThat(buckets.hasToken(bank)).isFalse();
        assertThat(buckets.secondsUntilToken(bank)).isEqualTo(2);
        assertThat(buckets.hasToken(other)).as("each participant its own bucket").isTrue();
        nanos.addAndGet(2_000_000_000L);
        assertThat(buckets.hasToken(bank)).isTrue();
        nanos.addAndGet(3_600_000_000_000L);
        buckets.take(bank, 3);
        assertThat(buckets.hasToken(bank)).as("refilled up to the burst, never beyond").isFalse();
    }

    @Test
    void aDebtIsPaidBackBeforeTheNextToken() {
        ParticipantTokenBuckets buckets = new ParticipantTokenBuckets(2, 1, 10, nanos::get);
        buckets.take(bank, 12);
        assertThat(buckets.secondsUntilToken(bank)).isEqualTo(11);
        nanos.addAndGet(10_000_000_000L);
        assertThat(buckets.hasToken(bank)).isFalse();
        nanos.addAndGet(1_000_000_000L);
        assertThat(buckets.hasToken(bank)).isTrue();
    }

    @Test
    void memoryIsBounded() {
        ParticipantTokenBuckets buckets = new ParticipantTokenBuckets(1, 1, 2, nanos::get);
        for (int ispb = 1; ispb <= 100; ispb++) {
            buckets.take(Caller.bank(ispb), 1);
        }
        assertThat(buckets.participants()).isEqualTo(2);
    }
}
