package io.pagora.payments.api.application.intake;

import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.PixId;
import io.pagora.settlement.domain.access.Caller;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The durable idempotency store, shared by every API instance: which payment each key names, a fingerprint of the
 * request it was first used with, and the payment's end-to-end id (or return id). Keys and ids are scoped by
 * participant: two banks that happen to choose the same key name two payments, and no bank can replay (or learn of)
 * another's request.
 *
 * <p>One row per payment holds both names: a key names one payment, and an end-to-end id names one payment of its
 * bank, both for as long as the row is kept. A claim whose id already names another key's payment stores its key
 * without the id (the id stays the other row's) and is answered with that other row, so the caller can tell a replay
 * under another key (the same request) from a reuse of the id (another request).
 */
public interface IdempotencyKeys {

    /** The most keys (and ids) one {@link #find} looks for. */
    int FIND_KEYS_MAX = 1_000;

    /** A key as one participant uses it: the same text used by two participants is two keys. */
    record Scoped(Caller participant, IdempotencyKey key) {}

    /** A PIX id as one participant uses it. */
    record ScopedId(Caller participant, PixId id) {}

    /**
     * Claim {@code key} for {@code candidateId}, unless the key already names a payment; {@code endToEndId} is the id
     * the payment has if the candidate wins (null for a claim that names no payment, such as an account opening).
     */
    record Claim(Scoped key, byte[] requestSha256, PaymentId candidateId, PixId endToEndId) {}

    /**
     * A row: what a key names.
     *
     * @param inserted true if this call stored it (the candidate id won), false if it was there before
     * @param endToEndId the id the row holds, as stored (checked when it was claimed); null when the row names none, or
     *     its claim found the id another key's
     */
    record Stored(
            Scoped key,
            byte[] requestSha256,
            PaymentId paymentId,
            Instant acceptedAt,
            boolean inserted,
            String endToEndId) {

        /** The same row, as found rather than inserted. */
        public Stored asFound() {
            return inserted ? new Stored(key, requestSha256, paymentId, acceptedAt, false, endToEndId) : this;
        }
    }

    /**
     * What one claim found.
     *
     * @param key the row its key names now (inserted by this claim, or found)
     * @param idOfAnotherKey the row of another key that holds the claim's end-to-end id, or null
     */
    record Claimed(Stored key, Stored idOfAnotherKey) {}

    /** What one {@link #find} found, by key and by id. */
    record Found(Map<Scoped, Stored> byKey, Map<ScopedId, Stored> byId) {}

    /**
     * Claims every key at once, in a constant number of database round trips whatever the batch size. Keys must be
     * distinct. Answers one entry per claimed key.
     *
     * @param acceptedAt stored with every newly claimed key; microsecond precision
     */
    Map<Scoped, Claimed> claimAll(List<Claim> claims, Instant acceptedAt);

    /**
     * The rows the keys and ids name now, claiming nothing, in one query: at most {@link #FIND_KEYS_MAX} names in all.
     */
    Found find(List<Scoped> keys, List<ScopedId> ids);

    /** The rows the keys name now, claiming nothing. */
    default Map<Scoped, Stored> find(List<Scoped> keys) {
        return find(keys, List.of()).byKey();
    }
}
