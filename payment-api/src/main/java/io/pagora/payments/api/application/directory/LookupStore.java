package io.pagora.payments.api.application.directory;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.domain.directory.KeyEntry;
import io.pagora.payments.api.domain.directory.PixKey;
import io.pagora.payments.api.domain.directory.TokenBucket;
import io.pagora.settlement.domain.PixId;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where look-ups are decided and remembered: the anti-scanning buckets (one row each, shared by every instance, kept
 * across restarts) and the end-to-end ids look-ups reserved, which the payments that follow name.
 */
public interface LookupStore {

    /** A bucket: a bank's own ({@code payerId} null), or one of its end users'. */
    record BucketId(String participant, String payerId) {
        public BucketId {
            Check.that(participant != null && !participant.isEmpty(), "a bucket belongs to a participant");
        }

        public boolean participants() {
            return payerId == null;
        }
    }

    /** An end-to-end id reserved by a look-up of {@code participant} for its end user {@code payerId}. */
    record Reserved(String participant, PixId endToEndId, PixKey key, Id128 account, String payerId, Instant at) {}

    /** What one look-up batch decides, given the buckets (refilled to {@code now}) and the keys found. */
    interface Decision {
        Decided decide(Instant now, Map<BucketId, TokenBucket> levels, Map<PixKey, KeyEntry> found);
    }

    /** The buckets' new levels (every bucket of the batch) and the ids reserved. */
    record Decided(Map<BucketId, TokenBucket> levels, List<Reserved> reserved) {}

    /**
     * One transaction: locks the buckets (in a fixed order, so batches never deadlock; a bucket never seen starts as
     * {@code fresh} says, at the store's clock), first adds {@code refunds} to them, reads the keys, asks {@code
     * decide}, writes the levels and the reservations. The store's clock is the one every instance shares.
     *
     * @param fresh the level a new bucket starts at: full, {@code burst} tokens
     */
    void lookUp(
            Set<BucketId> buckets,
            Map<BucketId, Double> refunds,
            Map<BucketId, Double> fresh,
            Collection<PixKey> keys,
            Decision decide);

    /** The buckets' levels as stored (not refilled), with the store's clock; absent ones were never used. */
    Levels levels(Set<BucketId> buckets);

    record Levels(Instant now, Map<BucketId, TokenBucket> stored) {}

    /** A payment naming a look-up: its bank, its end-to-end id. */
    record Naming(String participant, PixId endToEndId) {}

    /**
     * The look-up each naming names, if one was reserved since {@code since}; each found one not yet paid whose key
     * still points to the account it found is marked paid now, in the same statement: one statement for the batch.
     */
    Map<Naming, Found> pay(Collection<Naming> namings, Instant since);

    /**
     * A reserved look-up, as a payment finds it.
     *
     * @param firstPayment this call marked it paid: its key still pointed where the look-up found it
     * @param paidBefore an earlier payment marked it paid
     * @param keyUnmoved the key points where the look-up found it
     */
    record Found(Reserved reserved, boolean firstPayment, boolean paidBefore, boolean keyUnmoved) {}
}
