package io.pagora.payments.api.domain;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Ledger transfer ids derived from a client's idempotency key, so that the ledger itself is the
 * idempotency store for administrative fundings: the same key always names the same transfer
 * (the ledger answers {@code EXISTS}), a different amount under the same key is refused
 * ({@code EXISTS_WITH_DIFFERENT_AMOUNT}). The purpose and the target are part of the hash, so one key
 * used for two different targets names two different transfers. That also scopes the keys by participant,
 * with no participant in the hash: a target is funded only by its owner (a customer account by its bank, a
 * reserve by the operator: ParticipantAdministration), so two banks' equal keys never name one transfer
 * (AuthorizationTest shows it, and that a refused funding leaves the key free).
 */
public final class DerivedIds {

    private DerivedIds() {}

    public static Id128 reserveFunding(BankId bank, IdempotencyKey key) {
        return derive("reserve-funding:" + bank + ":" + key.value());
    }

    public static Id128 customerFunding(Id128 customer, IdempotencyKey key) {
        return derive("customer-funding:" + customer + ":" + key.value());
    }

    /** The first 128 bits of SHA-256 of {@code text}. */
    static Id128 derive(String text) {
        ByteBuffer digest = ByteBuffer.wrap(PaymentRequest.sha256(text.getBytes(StandardCharsets.UTF_8)));
        Id128 id = new Id128(digest.getLong(), digest.getLong());
        // 2^-128 each; the ledger would refuse them, so fail loudly instead of guessing.
        Check.that(!id.isZero() && !id.isMax(), "derived id is zero or max for %s", text);
        return id;
    }
}
