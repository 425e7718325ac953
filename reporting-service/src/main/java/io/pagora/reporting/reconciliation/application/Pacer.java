package io.pagora.reporting.reconciliation.application;

import io.pagora.kernel.Check;
import java.util.concurrent.TimeUnit;

/**
 * Spaces the reconciliation's ledger requests at least {@code 1 / requestsPerSecondMax} apart, so that they
 * never crowd clearing's requests on the ledger (TigerBeetle serves every client on one core): a backlog is
 * worked off at that pace, not at once. Not thread-safe: one thread runs the rounds.
 */
final class Pacer {

    private final long intervalNanos;
    private long nextNanos = System.nanoTime();

    Pacer(int requestsPerSecondMax) {
        Check.that(
                requestsPerSecondMax >= 1 && requestsPerSecondMax <= 10_000,
                "ledger requests per second must be 1..10000: %d",
                requestsPerSecondMax);
        this.intervalNanos = TimeUnit.SECONDS.toNanos(1) / requestsPerSecondMax;
    }

    /** Waits until the next request may be sent, and books its slot. */
    void awaitSlot() {
        long now = System.nanoTime();
        long waitNanos = nextNanos - now;
        if (waitNanos > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(waitNanos);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // shutdown: the round ends with this failure
                throw new IllegalStateException(
                        "the reconciliation was interrupted while pacing its ledger requests", e);
            }
        }
        // From when this request really goes (a sleep may overrun): two requests are never closer than the interval.
        nextNanos = System.nanoTime() + intervalNanos;
    }
}
