package io.pagora.payments.api.application.intake;

import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.access.Caller;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The durable idempotency store, shared by every API instance: which payment each key names, and a
 * fingerprint of the request it was first used with. Keys are scoped by participant: two banks that
 * happen to choose the same key name two payments, and no bank can replay (or learn of) another's request.
 */
public interface IdempotencyKeys {

    /** The most keys one {@link #find} looks for. */
    int FIND_KEYS_MAX = 1_000;

    /** A key as one participant uses it: the same text used by two participants is two keys. */
    record Scoped(Caller participant, IdempotencyKey key) {}

    /** Claim {@code key} for {@code candidateId}, unless the key already names a payment. */
    record Claim(Scoped key, byte[] requestSha256, PaymentId candidateId) {}

    /**
     * What the key names now.
     *
     * @param inserted true if this call stored it (the candidate id won), false if it was there before
     */
    record Stored(Scoped key, byte[] requestSha256, PaymentId paymentId, Instant acceptedAt, boolean inserted) {}

    /**
     * Claims every key at once, in a constant number of database round trips whatever the batch size.
     * Keys must be distinct. Answers one entry per claimed key.
     *
     * @param acceptedAt stored with every newly claimed key; microsecond precision
     */
    Map<Scoped, Stored> claimAll(List<Claim> claims, Instant acceptedAt);

    /**
     * What the keys name now, claiming nothing: one entry per key found ({@code inserted} false), in one query. At
     * most {@link #FIND_KEYS_MAX} keys.
     */
    Map<Scoped, Stored> find(List<Scoped> keys);
}
