package io.pagora.clearing.adapter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pending-chains gauges: counted from reservation to resolution, oldest first, bounded in time and size. */
class PendingChainsTest {

    static final BankId A = new BankId(10001111);
    static final BankId B = new BankId(10002222);
    final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T12:00:00Z"));
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final PendingChains pending = new PendingChains(clock, Duration.ofSeconds(60), 3, registry);

    @Test
    void countsChainsFromReservationUntilResolutionAndAgesTheOldest() {
        pending.reserved(List.of(chain(1, A), chain(2, A)));
        clock.advance(Duration.ofSeconds(5));
        pending.reserved(List.of(chain(3, A), chain(1, A))); // 1 again: a redelivery keeps its first reservation time
        assertThat(gauge(PendingChains.CHAINS)).isEqualTo(3);
        assertThat(gauge(PendingChains.OLDEST_AGE)).isEqualTo(5.0);

        pending.resolved(List.of(id(1), id(2), id(99)));
        assertThat(gauge(PendingChains.CHAINS)).isEqualTo(1);
        assertThat(gauge(PendingChains.OLDEST_AGE)).isZero(); // 3 was reserved just now

        pending.resolved(List.of(id(3)));
        assertThat(gauge(PendingChains.CHAINS)).isZero();
        assertThat(gauge(PendingChains.OLDEST_AGE)).isZero();
    }

    @Test
    void forgetsChainsTheLedgerHasLongExpiredAndKeepsAtMostItsCapacity() {
        pending.reserved(List.of(chain(1, A)));
        clock.advance(Duration.ofSeconds(61));
        assertThat(gauge(PendingChains.CHAINS))
                .as("forgotten after forgetAfter")
                .isZero();

        pending.reserved(List.of(chain(2, A), chain(3, A), chain(4, A), chain(5, A)));
        assertThat(pending.count()).as("capacity 3").isEqualTo(3);
        pending.resolved(List.of(id(3), id(4), id(5)));
        assertThat(pending.count())
                .as("the oldest (2) was dropped, not a newer one")
                .isZero();
    }

    @Test
    void countsPerReceivingBankWhatWaitsForItsAnswerAndForgetsLikeTheTotal() {
        pending.reserved(List.of(chain(1, A), chain(2, B), chain(3, B)));
        assertThat(awaiting(A)).isEqualTo(1);
        assertThat(awaiting(B)).isEqualTo(2);

        pending.resolved(List.of(id(2), id(2)));
        assertThat(awaiting(B))
                .as("a second resolution of the same chain counts once")
                .isEqualTo(1);
        pending.reserved(List.of(chain(4, A), chain(5, A)));
        assertThat(awaiting(A)).as("capacity 3: the oldest (A's 1) was dropped").isEqualTo(2);
        assertThat(awaiting(B)).isEqualTo(1);
        clock.advance(Duration.ofSeconds(61));
        assertThat(awaiting(A) + awaiting(B)).as("forgotten after forgetAfter").isZero();
        assertThat(gauge(PendingChains.CHAINS)).isZero();
    }

    private double awaiting(BankId bank) {
        return registry.get(PendingChains.AWAITING)
                .tag("bank", bank.toString())
                .gauge()
                .value();
    }

    private static PendingChains.Chain chain(long n, BankId bank) {
        return new PendingChains.Chain(id(n), bank);
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    private static PaymentId id(long n) {
        return new PaymentId(new Id128(1, n << 8));
    }

    static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
