package io.pagora.clearing.adapter.ledger;

import io.pagora.kernel.Check;
import io.pagora.ledger.adapter.postgres.PostgresLedger;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.LedgerUnavailableException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Marks due pending transfers of the PostgreSQL ledger expired, every {@code interval}, a ledger
 * batch at a time until none is left. TigerBeetle expires pending transfers itself; the PostgreSQL
 * ledger does it lazily, inside the batches that touch the accounts.
 *
 * <p>Why clearing runs it: a batch that touches an account with due (unswept) pending transfers must
 * expire them under its locks, and {@code PostgresLedger} 0.1.0 gives up on a batch
 * ({@code RetryableConflict} "account … became relevant after locking", then
 * {@code LedgerUnavailableException}) when a due transfer of such an account involves a further
 * account it did not lock — which is exactly the situation of the expiry worker, which voids chains
 * after their timeout while neighbouring chains are due too. Sweeping keeps the due set empty most of
 * the time, so those batches succeed on their first attempts (and clearing's retry covers the rest).
 */
public final class PostgresExpirySweeper implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PostgresExpirySweeper.class);

    /** A sweep's batches per run: bounded, so one run never monopolises the ledger. */
    static final int BATCHES_PER_RUN_MAX = 16;

    private final PostgresLedger ledger;
    private final Duration interval;
    private ScheduledExecutorService executor;

    public PostgresExpirySweeper(PostgresLedger ledger, Duration interval) {
        Check.that(
                interval.toMillis() >= 10 && interval.compareTo(Duration.ofMinutes(1)) <= 0,
                "pagora.clearing.sweep-interval in [10ms, 1m]: %s",
                interval);
        this.ledger = ledger;
        this.interval = interval;
    }

    /** Runs one sweep now; returns how many pending transfers it expired. */
    public int sweep() {
        int expired = 0;
        for (int batch = 0; batch < BATCHES_PER_RUN_MAX; batch++) {
            int swept = ledger.sweepExpired(Ledger.BATCH_SIZE_MAX);
            expired += swept;
            if (swept < Ledger.BATCH_SIZE_MAX) {
                break;
            }
        }
        return expired;
    }

    private void sweepQuietly() {
        try {
            int expired = sweep();
            if (expired > 0) {
                log.debug("expired {} due pending transfers", expired);
            }
        } catch (LedgerUnavailableException e) {
            log.warn("expiry sweep failed, next in {}: {}", interval, e.getMessage());
        } catch (RuntimeException e) {
            // Never let the schedule die: a later run may succeed.
            log.error("expiry sweep failed", e);
        }
    }

    @Override
    public synchronized void start() {
        if (executor == null) {
            executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "ledger-expiry-sweeper");
                thread.setDaemon(true);
                return thread;
            });
            executor.scheduleWithFixedDelay(
                    this::sweepQuietly, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public synchronized void stop() {
        if (executor != null) {
            executor.shutdownNow();
            try {
                executor.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            executor = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }
}
