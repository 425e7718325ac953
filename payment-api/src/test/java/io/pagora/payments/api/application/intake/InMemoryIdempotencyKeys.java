package io.pagora.payments.api.application.intake;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The idempotency store as its partitions keep it, in memory: a key claimed on day D is found through
 * D + {@code retentionDays} on {@code clock}, then gone (JdbcIdempotencyPartitions drops day D's partition once
 * today - retention is past it).
 */
public final class InMemoryIdempotencyKeys implements IdempotencyKeys {

    private final Clock clock;
    private final int retentionDays;
    private final Map<Scoped, Stored> stored = new HashMap<>();
    /** Run once after the next look-up: what happens between it and the claim. */
    private Runnable afterNextFind = () -> {};

    public InMemoryIdempotencyKeys(Clock clock, int retentionDays) {
        this.clock = clock;
        this.retentionDays = retentionDays;
    }

    /** Runs {@code action} once, right after the next {@link #find}. */
    public void afterNextFind(Runnable action) {
        afterNextFind = action;
    }

    /** Forgets every key, as dropping every partition would. */
    public void dropAll() {
        stored.clear();
    }

    @Override
    public Map<Scoped, Stored> claimAll(List<Claim> claims, Instant acceptedAt) {
        Map<Scoped, Stored> answers = new HashMap<>();
        for (Claim claim : claims) {
            Stored kept = kept(claim.key());
            if (kept == null) {
                kept = new Stored(claim.key(), claim.requestSha256(), claim.candidateId(), acceptedAt, true);
                stored.put(claim.key(), kept);
                answers.put(claim.key(), kept);
            } else {
                answers.put(
                        claim.key(),
                        new Stored(kept.key(), kept.requestSha256(), kept.paymentId(), kept.acceptedAt(), false));
            }
        }
        return answers;
    }

    @Override
    public Map<Scoped, Stored> find(List<Scoped> wanted) {
        Map<Scoped, Stored> found = new HashMap<>();
        for (Scoped key : wanted) {
            Stored kept = kept(key);
            if (kept != null) {
                found.put(key, kept);
            }
        }
        Runnable after = afterNextFind;
        afterNextFind = () -> {};
        after.run();
        return found;
    }

    /** The key as kept today, or null once its day's partition is dropped (or never claimed). */
    private Stored kept(Scoped key) {
        LocalDate oldestKept =
                LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).minusDays(retentionDays);
        Stored kept = stored.get(key);
        if (kept == null
                || LocalDate.ofInstant(kept.acceptedAt(), ZoneOffset.UTC).isBefore(oldestKept)) {
            return null;
        }
        return new Stored(kept.key(), kept.requestSha256(), kept.paymentId(), kept.acceptedAt(), false);
    }
}
