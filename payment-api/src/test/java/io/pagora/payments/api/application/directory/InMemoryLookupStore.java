package io.pagora.payments.api.application.directory;

import io.pagora.payments.api.domain.directory.KeyEntry;
import io.pagora.payments.api.domain.directory.PixKey;
import io.pagora.payments.api.domain.directory.TokenBucket;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The look-up store in memory, on a test clock, reading keys from an {@link InMemoryKeyStore}. */
public final class InMemoryLookupStore implements LookupStore {

    private final Clock clock;
    private final InMemoryKeyStore keys;
    final Map<BucketId, TokenBucket> buckets = new HashMap<>();
    final Map<Naming, Reserved> reserved = new LinkedHashMap<>();
    final Map<Naming, Instant> paidAt = new HashMap<>();
    /** Transactions run: one per look-up batch. */
    int transactions;

    public synchronized int transactions() {
        return transactions;
    }

    public InMemoryLookupStore(Clock clock, InMemoryKeyStore keys) {
        this.clock = clock;
        this.keys = keys;
    }

    @Override
    public synchronized void lookUp(
            Set<BucketId> asked,
            Map<BucketId, Double> refunds,
            Map<BucketId, Double> fresh,
            Collection<PixKey> wanted,
            Decision decide) {
        transactions++;
        Instant now = clock.instant();
        Map<BucketId, TokenBucket> levels = new HashMap<>();
        for (BucketId bucket : asked) {
            TokenBucket level = buckets.getOrDefault(bucket, new TokenBucket(fresh.get(bucket), now));
            levels.put(bucket, new TokenBucket(level.tokens() + refunds.getOrDefault(bucket, 0.0), level.at()));
        }
        Map<PixKey, KeyEntry> found = keys.findAll(wanted);
        Decided decided = decide.decide(now, levels, found);
        for (BucketId bucket : asked) {
            buckets.put(bucket, decided.levels().getOrDefault(bucket, levels.get(bucket)));
        }
        for (Reserved lookup : decided.reserved()) {
            reserved.put(new Naming(lookup.participant(), lookup.endToEndId()), lookup);
        }
    }

    @Override
    public synchronized Levels levels(Set<BucketId> asked) {
        Map<BucketId, TokenBucket> stored = new HashMap<>();
        for (BucketId bucket : asked) {
            if (buckets.containsKey(bucket)) {
                stored.put(bucket, buckets.get(bucket));
            }
        }
        return new Levels(clock.instant(), stored);
    }

    @Override
    public synchronized Map<Naming, Found> pay(Collection<Naming> namings, Instant since) {
        Map<Naming, Found> found = new HashMap<>();
        for (Naming naming : namings) {
            Reserved lookup = reserved.get(naming);
            if (lookup == null || lookup.at().isBefore(since)) {
                continue;
            }
            boolean unmoved = keys.find(lookup.key())
                    .map(entry -> entry.account().equals(lookup.account()))
                    .orElse(false);
            boolean paidBefore = paidAt.containsKey(naming);
            boolean first = !paidBefore && unmoved;
            if (first) {
                paidAt.put(naming, clock.instant());
            }
            found.put(naming, new Found(lookup, first, paidBefore, unmoved));
        }
        return found;
    }
}
