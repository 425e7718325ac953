package io.pagora.payments.api.domain.directory;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A claim on a key (DICT's reivindicação): the claimer bank wants the key for an account of its own, taken from the
 * donor bank's account that holds it. Open until the donor confirms (the key moves) or cancels, the claimer cancels,
 * or its deadline passes: then the directory completes an ownership claim and cancels a portability one, as DICT's
 * claim life cycle does.
 *
 * @param resolution who or what resolved it (null while open)
 */
public record Claim(
        UUID id,
        Type type,
        PixKey key,
        String claimer,
        Id128 claimerAccount,
        String holderName,
        String holderTaxId,
        String donor,
        Id128 donorAccount,
        Status status,
        Instant openedAt,
        Instant resolveBy,
        Instant resolvedAt,
        Resolution resolution) {

    /** Ownership: a key (a phone, an e-mail) now another person's. Portability: the same holder's, to another bank. */
    public enum Type {
        OWNERSHIP,
        PORTABILITY
    }

    public enum Status {
        OPEN,
        COMPLETED,
        CANCELLED
    }

    public enum Resolution {
        DONOR_CONFIRMED,
        DONOR_CANCELLED,
        CLAIMER_CANCELLED,
        /** The deadline passed: an ownership claim completes. */
        DEADLINE_COMPLETED,
        /** The deadline passed: a portability claim is cancelled. */
        DEADLINE_CANCELLED,
        /** The key was deleted or changed by its holding bank before the claim completed. */
        KEY_CHANGED,
        /** The claimer's account holds the most keys it may by the time the claim would complete. */
        CLAIMER_LIMIT_REACHED
    }

    public Claim {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(status, "status");
        Check.that(!claimer.equals(donor), "a claim is between two banks: %s", claimer);
        Check.that(
                (status == Status.OPEN) == (resolution == null), "an open claim has no resolution, a closed one has");
        Check.that((status == Status.OPEN) == (resolvedAt == null), "a closed claim says when");
        Check.that(resolveBy.isAfter(openedAt), "a claim's deadline is after its opening");
    }

    /** The claim resolved: completed (the key is the claimer's) or cancelled, at {@code now}, by {@code resolution}. */
    public Claim resolved(Resolution how, Instant now) {
        Check.that(status == Status.OPEN, "only an open claim is resolved: %s", id);
        Status closed = switch (how) {
            case DONOR_CONFIRMED, DEADLINE_COMPLETED -> Status.COMPLETED;
            case DONOR_CANCELLED, CLAIMER_CANCELLED, DEADLINE_CANCELLED, KEY_CHANGED, CLAIMER_LIMIT_REACHED ->
                Status.CANCELLED;
        };
        return new Claim(
                id,
                type,
                key,
                claimer,
                claimerAccount,
                holderName,
                holderTaxId,
                donor,
                donorAccount,
                closed,
                openedAt,
                resolveBy,
                now,
                how);
    }

    /** What the deadline does to it: an ownership claim completes, a portability one is cancelled. */
    public Resolution atDeadline() {
        return type == Type.OWNERSHIP ? Resolution.DEADLINE_COMPLETED : Resolution.DEADLINE_CANCELLED;
    }

    /** The key as the claimer's account will hold it. */
    public KeyEntry claimedEntry(Instant now) {
        return new KeyEntry(key, claimerAccount, holderName, holderTaxId, now);
    }
}
