package io.pagora.payments.api.application;

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
     * the time elapsed (capped at {@code burst}), then {@code returned} unspent tokens go back (capped again) and
     * {@code debt} tokens spent into debt come off, then at most {@code want} whole tokens are granted, never more
     * than the bucket holds. A bucket not there yet starts full.
     *
     * @param bucket which limit ({@code payments}, {@code unknown-accounts})
     * @param participant the caller's principal name
     */
    record Lease(String bucket, String participant, long want, long debt, long returned, long burst,
            double refillPerSecond) {}

    /**
     * @param granted whole tokens now the instance's to spend
     * @param left what the shared bucket holds after the grant (negative: a debt)
     */
    record Grant(long granted, double left) {}

    /** One exchange per lease, all in one round trip; the grants in the leases' order. */
    List<Grant> lease(List<Lease> leases);

    /** Says this instance is alive, and answers how many are (this one included), seen within {@code liveMillis}. */
    int heartbeat(UUID instance, long liveMillis);

    /** This instance stops: it no longer counts among the live ones. */
    void leave(UUID instance);
}
