package io.pagora.payments.api.application.limits;

import java.util.List;
import java.util.UUID;

/**
 * Where every payment-api instance of the switch keeps its per-participant limits, so they hold for the switch and
 * not per instance: a token bucket per (bucket, participant), refilled on the store's own clock (the instances'
 * clocks never count), and the instances alive. Called in batches from one background thread per instance
 * ({@link LimitLeaser}), never per payment.
 */
public interface SharedLimitStore {

    /**
     * What one instance asks of one participant's shared bucket, in one exchange: first the bucket is refilled by
     * the time elapsed, up to the burst less what the live instances hold (as each last said, this one included), so
     * the tokens in the bucket and those held by instances never exceed the burst together; then {@code returned}
     * unspent tokens go back and {@code debt} tokens spent into debt come off, then at most {@code want} whole tokens
     * are granted, never more than the bucket holds; then this instance holds {@code kept} plus the grant. A bucket
     * not there yet starts full.
     *
     * @param bucket which limit ({@code payments}, {@code unknown-accounts})
     * @param participant the caller's principal name
     * @param kept the tokens the instance still holds after returning {@code returned} (at least what it holds when
     *     the grant arrives: it only spends meanwhile)
     */
    record Lease(
            String bucket,
            String participant,
            long want,
            long debt,
            long returned,
            long kept,
            long burst,
            double refillPerSecond) {}

    /**
     * @param granted whole tokens now the instance's to spend
     * @param left what the shared bucket holds after the grant (negative: a debt)
     */
    record Grant(long granted, double left) {}

    /**
     * One exchange per lease for {@code instance}, all at once; the grants in the leases' order. What instances not
     * seen within {@code liveMillis} hold no longer counts: they are gone, and so are their tokens.
     */
    List<Grant> lease(UUID instance, long liveMillis, List<Lease> leases);

    /** Says this instance is alive, and answers how many are (this one included), seen within {@code liveMillis}. */
    int heartbeat(UUID instance, long liveMillis);

    /** This instance stops: it no longer counts among the live ones. */
    void leave(UUID instance);
}
