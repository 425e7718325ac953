package io.pagora.clearing.adapter.kafka;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Lets the expiry worker sleep until a deadline, in short slices, and gives up at once when the
 * application stops: the batch then fails, its offsets stay uncommitted, and it is redelivered after
 * the restart. Its lifecycle phase is above the listener containers', so it stops before them and a
 * shutdown never waits for a whole pending timeout.
 */
@Component
public class ExpiryDeadlines implements SmartLifecycle {

    private static final Duration SLICE = Duration.ofMillis(100);

    private final Clock clock;
    private volatile boolean started;
    /** Set when the application stops; until then waits proceed (even before {@link #start}, which runs late). */
    private volatile boolean stopping;

    public ExpiryDeadlines(Clock clock) {
        this.clock = clock;
    }

    /** Returns once {@code deadline} has passed. @throws ShuttingDown if the application stops first */
    public void awaitPassed(Instant deadline) {
        while (true) {
            if (stopping) {
                throw new ShuttingDown(
                        "stopping before the expiry deadline " + deadline + "; the batch will be redelivered");
            }
            Duration left = Duration.between(clock.instant(), deadline);
            if (left.isNegative() || left.isZero()) {
                return;
            }
            try {
                Thread.sleep(left.compareTo(SLICE) < 0 ? left : SLICE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ShuttingDown("interrupted while waiting for the expiry deadline " + deadline);
            }
        }
    }

    @Override
    public void start() {
        stopping = false;
        started = true;
    }

    @Override
    public void stop() {
        stopping = true;
        started = false;
    }

    @Override
    public boolean isRunning() {
        return started;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }

    /** The application is stopping: not a failure of the batch, which will be redelivered. */
    public static final class ShuttingDown extends RuntimeException {
        ShuttingDown(String message) {
            super(message);
        }
    }
}
