package io.pagora.payments.api.application.intake;

import io.pagora.kernel.Check;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.function.LongSupplier;

/**
 * Admission control: past capacity, a payment is refused at once with 429 {@code overloaded} and
 * {@code Retry-After}, before anything is claimed or published — never after a wait, never as a 500.
 * Two signals:
 * <ul>
 *   <li><b>clearing's lag</b>: payments accepted but not yet taken by clearing (its consumer group's lag
 *       on the requests topic). Past {@code clearingLagMax}, accepting more only lengthens the time to a
 *       final state for everyone; the API sheds load until clearing catches up. A lag that cannot be
 *       measured (the broker away) is no reason to refuse: the publish then fails on its own.
 *   <li><b>batches in flight</b>: at most {@code batchesInFlightMax} batch requests work at once, below
 *       the database pool, so an intake never queues for a connection.
 * </ul>
 */
public final class Admission {

    /** Lag when it could not be measured. */
    public static final long LAG_UNKNOWN = -1;

    private final LongSupplier clearingLagRecords;
    private final long clearingLagMax;
    private final Semaphore batches;
    private final int batchesInFlightMax;

    public Admission(LongSupplier clearingLagRecords, long clearingLagMax, int batchesInFlightMax) {
        Check.that(clearingLagMax >= 1, "clearing lag max must be positive: %d", clearingLagMax);
        Check.that(
                batchesInFlightMax >= 1 && batchesInFlightMax <= 1_000,
                "batches in flight max in 1..1000: %d",
                batchesInFlightMax);
        this.clearingLagRecords = clearingLagRecords;
        this.clearingLagMax = clearingLagMax;
        this.batches = new Semaphore(batchesInFlightMax);
        this.batchesInFlightMax = batchesInFlightMax;
    }

    /** Why new payments are refused now; empty if they may be accepted. */
    public Optional<Refusal> refusal() {
        long lag = clearingLagRecords.getAsLong();
        if (lag > clearingLagMax) {
            return Optional.of(Refusal.of(
                    RefusalReason.OVERLOADED,
                    "clearing is " + lag + " payments behind (the limit is " + clearingLagMax
                            + "); nothing was done with this request: retry it after Retry-After"));
        }
        return Optional.empty();
    }

    /** Takes a batch slot, or answers why not; release it with {@link #batchDone()}. */
    public Optional<Refusal> enterBatch() {
        if (batches.tryAcquire()) {
            return Optional.empty();
        }
        return Optional.of(Refusal.of(
                RefusalReason.OVERLOADED,
                batchesInFlightMax + " batches are being accepted"
                        + " already; nothing was done with this one: retry it after Retry-After"));
    }

    public void batchDone() {
        batches.release();
    }
}
