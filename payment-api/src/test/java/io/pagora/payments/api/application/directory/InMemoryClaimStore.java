package io.pagora.payments.api.application.directory;

import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.Claim;
import io.pagora.payments.api.domain.directory.KeyEntry;
import io.pagora.payments.api.domain.directory.KeyRules;
import io.pagora.payments.api.domain.directory.PixKey;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/** The claim store as the JDBC one keeps it, in memory, moving keys in an {@link InMemoryKeyStore}. */
public final class InMemoryClaimStore implements ClaimStore {

    private final InMemoryKeyStore keys;
    private final Map<UUID, Claim> claims = new LinkedHashMap<>();
    private final Map<String, UUID> byRequest = new HashMap<>();

    public InMemoryClaimStore(InMemoryKeyStore keys) {
        this.keys = keys;
    }

    @Override
    public synchronized Opened open(
            PixKey key, String claimer, String requestKey, Function<KeyEntry, Decision> decide) {
        UUID earlier = byRequest.get(claimer + " " + requestKey);
        if (earlier != null) {
            return new Opened.Done(claims.get(earlier), false);
        }
        Decision decision = decide.apply(keys.find(key).orElse(null));
        if (decision.refusal() != null) {
            return new Opened.Refused(decision.refusal());
        }
        boolean open = claims.values().stream()
                .anyMatch(claim -> claim.key().equals(key) && claim.status() == Claim.Status.OPEN);
        if (open) {
            return new Opened.Refused(Refusal.of(RefusalReason.CLAIM_ALREADY_OPEN, "open already"));
        }
        claims.put(decision.claim().id(), decision.claim());
        byRequest.put(claimer + " " + requestKey, decision.claim().id());
        return new Opened.Done(decision.claim(), true);
    }

    @Override
    public synchronized Optional<Claim> find(UUID id) {
        return Optional.ofNullable(claims.get(id));
    }

    @Override
    public synchronized List<Claim> of(String participant, boolean asDonor, Claim.Status status, int limit) {
        return claims.values().stream()
                .filter(claim -> (asDonor ? claim.donor() : claim.claimer()).equals(participant))
                .filter(claim -> claim.status() == status)
                .sorted(Comparator.comparing(Claim::openedAt))
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized Claim resolve(UUID id, Function<Claim, Claim.Resolution> how, Instant now) {
        Claim claim = claims.get(id);
        if (claim.status() != Claim.Status.OPEN) {
            return claim;
        }
        Claim ended = claim.resolved(how.apply(claim), now);
        if (ended.status() == Claim.Status.COMPLETED) {
            Optional<KeyEntry> current = keys.find(claim.key());
            if (keys.ofAccount(claim.claimerAccount()).size() >= KeyRules.keysMax(claim.holderTaxId())) {
                ended = claim.resolved(Claim.Resolution.CLAIMER_LIMIT_REACHED, now);
            } else if (current.isEmpty() || !current.get().account().equals(claim.donorAccount())) {
                ended = claim.resolved(Claim.Resolution.KEY_CHANGED, now);
            } else {
                keys.delete(claim.key(), claim.donorAccount());
                keys.register(claim.claimedEntry(now), claim.claimer(), null, accountKeys -> Optional.empty());
            }
        }
        claims.put(id, ended);
        return ended;
    }

    @Override
    public synchronized List<UUID> due(Instant now, int limit) {
        return claims.values().stream()
                .filter(claim -> claim.status() == Claim.Status.OPEN
                        && !claim.resolveBy().isAfter(now))
                .map(Claim::id)
                .limit(limit)
                .toList();
    }
}
