package io.pagora.clearing.adapter.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pagora.clearing.application.InstructionWindow;
import io.pagora.kernel.Check;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * With participants, clearing reserves no faster than the banks answer: before a poll of requests is reserved and
 * instructed, it waits while {@code chainsMax} of this process's instructed chains still wait for an answer
 * ({@link PendingChains}). Without the window, an arrival rate above what the banks' answers and clearing's answer
 * path can carry is reserved all the same; every chain's pending timeout runs while its answer queues, and once the
 * queue is longer than the timeout nearly everything expires: at 12,000/s offered on TigerBeetle the participants' path
 * settled 96/s, expiring 1.76 million payments. With it the excess waits in Kafka, where no timeout runs, and the path
 * settles what it can carry.
 *
 * <p>The wait is bounded: a chain leaves the count when its outcome is published (an answer, or the expiry path) and in
 * any case once forgotten, {@code waitMax} after its reservation; after {@code waitMax} the poll goes on regardless.
 */
public final class InstructedWindow implements InstructionWindow {

    public static final String WAIT = "pagora.clearing.instructed.window.wait";
    private static final long SLICE_MILLIS = 10;

    private final PendingChains pending;
    private final int chainsMax;
    private final Duration waitMax;
    private final LongSupplier nanoTime;
    private final Timer waits;

    public InstructedWindow(PendingChains pending, int chainsMax, Duration waitMax, LongSupplier nanoTime,
            MeterRegistry meters) {
        Check.that(chainsMax >= 1, "chainsMax must be positive: %d", chainsMax);
        Check.that(waitMax.toMillis() > 0, "waitMax must be positive: %s", waitMax);
        this.pending = pending;
        this.chainsMax = chainsMax;
        this.waitMax = waitMax;
        this.nanoTime = nanoTime;
        this.waits = Timer.builder(WAIT).description("Polls of requests held back while the instructed window was full")
                .register(meters);
    }

    /** Returns once fewer than {@code chainsMax} instructed chains wait for an answer, or after {@code waitMax}. */
    @Override
    public void awaitRoom() throws InterruptedException {
        if (pending.count() < chainsMax) {
            return;
        }
        long started = nanoTime.getAsLong();
        long deadline = started + waitMax.toNanos();
        while (pending.count() >= chainsMax && nanoTime.getAsLong() - deadline < 0) {
            Thread.sleep(SLICE_MILLIS);
        }
        waits.record(Duration.ofNanos(nanoTime.getAsLong() - started));
    }
}
