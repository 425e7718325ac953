package io.pagora.clearing.adapter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The instructed window: a poll goes on at once while fewer chains than the window wait for answers, waits while the
 * window is full until answers (or expiries) free it, and never waits past its bound.
 */
class InstructedWindowTest {

    static final BankId BANK = new BankId(10002222);

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final PendingChains pending = new PendingChains(Clock.systemUTC(), Duration.ofMinutes(1), 100, registry);

    @Test
    void aPollGoesOnAtOnceBelowTheWindow() throws InterruptedException {
        reserve(1, 2);
        InstructedWindow window = new InstructedWindow(pending, 3, Duration.ofSeconds(30), System::nanoTime, registry);

        window.awaitRoom();

        assertThat(registry.get(InstructedWindow.WAIT).timer().count()).as("no wait recorded").isZero();
    }

    @Test
    void aFullWindowHoldsThePollUntilAnswersFreeIt() throws Exception {
        reserve(1, 2, 3);
        InstructedWindow window = new InstructedWindow(pending, 3, Duration.ofSeconds(30), System::nanoTime, registry);

        CompletableFuture<Void> poll = CompletableFuture.runAsync(() -> {
            try {
                window.awaitRoom();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(200);
        assertThat(poll).as("held while three chains wait").isNotDone();
        pending.resolved(List.of(id(2)));

        poll.get(5, TimeUnit.SECONDS);
        assertThat(registry.get(InstructedWindow.WAIT).timer().count()).isEqualTo(1);
    }

    @Test
    void aWindowThatStaysFullHoldsThePollNoLongerThanItsBound() throws InterruptedException {
        reserve(1, 2, 3);
        InstructedWindow window = new InstructedWindow(pending, 3, Duration.ofMillis(150), System::nanoTime, registry);

        long started = System.nanoTime();
        window.awaitRoom();

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofMillis(150), Duration.ofSeconds(5));
    }

    private void reserve(long... ids) {
        pending.reserved(LongStream.of(ids).mapToObj(n -> new PendingChains.Chain(id(n), BANK)).toList());
    }

    private static PaymentId id(long n) {
        return new PaymentId(new Id128(1, n << 8));
    }
}
