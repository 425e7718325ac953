package io.pagora.payments.api.application.intake;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The idempotency store as its partitions keep it, in memory: a row claimed on day D is found, by its key and by its
 * end-to-end id, through D + {@code retentionDays} on {@code clock}, then gone (JdbcIdempotencyPartitions drops day
 * D's partition once today - retention is past it). A claim whose id is another key's stores its key without the id
 * and answers the other row, as the JDBC store does.
 */
public final class InMemoryIdempotencyKeys implements IdempotencyKeys {

    private final Clock clock;
    private final int retentionDays;
    private final Map<Scoped, Stored> byKey = new HashMap<>();
    private final Map<ScopedId, Scoped> keyById = new HashMap<>();
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
        byKey.clear();
        keyById.clear();
    }

    /** Rows kept, as the table's row count. */
    public int rows() {
        return byKey.size();
    }

    @Override
    public Map<Scoped, Claimed> claimAll(List<Claim> claims, Instant acceptedAt) {
        Map<Scoped, Claimed> answers = new HashMap<>();
        for (Claim claim : claims) {
            ScopedId id =
                    claim.endToEndId() == null ? null : new ScopedId(claim.key().participant(), claim.endToEndId());
            Stored other = id == null ? null : keptById(id);
            if (other != null && other.key().equals(claim.key())) {
                other = null;
            }
            Stored kept = kept(claim.key());
            if (kept == null) {
                kept = new Stored(
                        claim.key(),
                        claim.requestSha256(),
                        claim.candidateId(),
                        acceptedAt,
                        true,
                        other == null && id != null ? claim.endToEndId().value() : null);
                byKey.put(claim.key(), kept);
                if (other == null && id != null) {
                    keyById.put(id, claim.key());
                }
            }
            answers.put(claim.key(), new Claimed(kept, other));
        }
        return answers;
    }

    @Override
    public Found find(List<Scoped> keys, List<ScopedId> ids) {
        Map<Scoped, Stored> foundByKey = new HashMap<>();
        for (Scoped key : keys) {
            Stored kept = kept(key);
            if (kept != null) {
                foundByKey.put(key, kept);
            }
        }
        Map<ScopedId, Stored> foundById = new HashMap<>();
        for (ScopedId id : ids) {
            Stored kept = keptById(id);
            if (kept != null) {
                foundById.put(id, kept);
            }
        }
        Runnable after = afterNextFind;
        afterNextFind = () -> {};
        after.run();
        return new Found(foundByKey, foundById);
    }

    private Stored keptById(ScopedId id) {
        Scoped key = keyById.get(id);
        return key == null ? null : kept(key);
    }

    /** The row as kept today, or null once its day's partition is dropped (or never claimed). */
    private Stored kept(Scoped key) {
        LocalDate oldestKept =
                LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).minusDays(retentionDays);
        Stored kept = byKey.get(key);
        if (kept == null
                || LocalDate.ofInstant(kept.acceptedAt(), ZoneOffset.UTC).isBefore(oldestKept)) {
            return null;
        }
        return kept.asFound();
    }
}
