package io.pagora.payments.api.application.directory;

import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.directory.Claim;
import io.pagora.payments.api.domain.directory.KeyEntry;
import io.pagora.payments.api.domain.directory.PixKey;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/** Where claims are kept, beside the keys they move: one row per claim, at most one open claim per key. */
public interface ClaimStore {

    /** What opening a claim did. */
    sealed interface Opened {
        /** {@code created} false: the claimer's same request (its Idempotency-Key) opened it before. */
        record Done(Claim claim, boolean created) implements Opened {}

        record Refused(Refusal problem) implements Opened {}
    }

    /**
     * In one transaction: the claimer's earlier claim under {@code requestKey} if there is one; else the key, locked,
     * handed to {@code decide} (null if it is not registered), which answers the claim to open or why not; then the
     * claim stored, unless the key has an open claim already ({@code claim-already-open}).
     */
    Opened open(PixKey key, String claimer, String requestKey, Function<KeyEntry, Decision> decide);

    /** A claim to open, or the refusal. */
    record Decision(Claim claim, Refusal refusal) {}

    Optional<Claim> find(UUID id);

    /** A bank's claims in one role and status, oldest first, at most {@code limit}. */
    List<Claim> of(String participant, boolean asDonor, Claim.Status status, int limit);

    /**
     * In one transaction: the claim locked; if it is still open, resolved as {@code how} says for it (a completion
     * moves the key to the claimer's account if the key is still the donor's, and the claimer's account has room for
     * it ({@code KeyRules}), else the claim is cancelled for that reason). Answers the claim as it ends; a closed one
     * as it was.
     */
    Claim resolve(UUID id, Function<Claim, Claim.Resolution> how, Instant now);

    /** Open claims whose deadline passed by {@code now}, at most {@code limit}. */
    List<UUID> due(Instant now, int limit);
}
