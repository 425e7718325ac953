package io.pagora.payments.api.application.directory.lookup;

import io.pagora.kernel.Check;
import io.pagora.payments.api.application.directory.LookupStore;
import io.pagora.payments.api.application.directory.LookupStore.BucketId;
import io.pagora.payments.api.application.directory.LookupStore.Decided;
import io.pagora.payments.api.application.directory.LookupStore.Reserved;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.AntiScanPolicy;
import io.pagora.payments.api.domain.directory.KeyEntry;
import io.pagora.payments.api.domain.directory.PixKey;
import io.pagora.payments.api.domain.directory.TokenBucket;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PixId;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.access.Caller;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Key look-ups by a payer's bank for one of its end users: who holds the key (the account, the holder's name and tax
 * id as {@link io.pagora.payments.api.domain.directory.HolderName} masks them, the key's creation time) and an
 * end-to-end id reserved for the payment that follows. Limited by {@link AntiScanPolicy}: a batch of look-ups is one
 * transaction of the {@link LookupStore}, which locks every bucket it touches, so the limits are exact switch-wide.
 *
 * <p>Whether a look-up is let through depends only on its buckets' levels, never on whether the key exists: a
 * refusal says nothing about the key. The key's existence decides only the cost.
 */
public final class LookingUpKeys {

    /** One look-up: the bank, its end user ({@code PI-PayerId}, a CPF or CNPJ), the key. */
    public record Ask(BankId bank, String payerId, PixKey key) {}

    /** What a look-up answers. */
    public sealed interface Answer {
        record Found(KeyEntry entry, PixId endToEndId, Instant at) implements Answer {}

        record Missing(PixKey key) implements Answer {}

        record Limited(Refusal problem) implements Answer {}
    }

    /** A bucket as a bank reads it: its level now (refilled), its size and refill. */
    public record Level(BucketId bucket, double tokens, TokenBucket.Limits limits) {}

    /** Returned tokens waiting for the next look-up batch: bounded, the excess dropped (stricter, never looser). */
    static final int REFUNDS_MAX = 100_000;

    private final LookupStore store;
    private final AntiScanPolicy policy;
    private final TimeOrderedIds ids;
    private final Map<BucketId, Double> refunds = new HashMap<>();
    /** Each bank's own bucket as its last batch left it: for a gauge, never for a decision. */
    private final Map<String, Double> banksLevels = new java.util.concurrent.ConcurrentHashMap<>();

    public LookingUpKeys(LookupStore store, AntiScanPolicy policy, TimeOrderedIds ids) {
        this.store = store;
        this.policy = policy;
        this.ids = ids;
    }

    /** The bank's own bucket as this instance's last batch left it (NaN before any): a gauge's reading. */
    public double lastLevel(String participant) {
        return banksLevels.getOrDefault(participant, Double.NaN);
    }

    public AntiScanPolicy policy() {
        return policy;
    }

    /** One answer per ask, in order; one store transaction for all. */
    public List<Answer> lookUpAll(List<Ask> asks) {
        Check.that(asks.size() <= 10_000, "at most 10000 look-ups at once: %d", asks.size());
        Set<BucketId> buckets = new LinkedHashSet<>();
        Map<BucketId, Double> fresh = new HashMap<>();
        Set<PixKey> keys = new LinkedHashSet<>();
        for (Ask ask : asks) {
            BucketId user = user(ask);
            BucketId participant = participant(ask.bank());
            buckets.add(user);
            buckets.add(participant);
            fresh.put(user, (double) policy.user(ask.payerId()).burst());
            fresh.put(participant, (double) policy.participant().burst());
            keys.add(ask.key());
        }
        Map<BucketId, Double> refunding = takeRefunds();
        for (BucketId refunded : refunding.keySet()) {
            buckets.add(refunded);
            fresh.put(refunded, (double) limits(refunded).burst());
        }
        Answer[] answers = new Answer[asks.size()];
        try {
            store.lookUp(
                    buckets, refunding, fresh, keys, (now, levels, found) -> decide(asks, now, levels, found, answers));
        } catch (RuntimeException e) {
            // Not applied: kept for the next batch (the store rolled back the whole transaction).
            putBack(refunding);
            throw e;
        }
        for (int i = 0; i < answers.length; i++) {
            Check.that(answers[i] != null, "look-up %d answered", i);
        }
        return List.of(answers);
    }

    /**
     * Applies the returned tokens now, without a look-up (an instance that takes payments and no look-ups). Nothing
     * to do: no transaction.
     */
    public void flushRefunds() {
        synchronized (refunds) {
            if (refunds.isEmpty()) {
                return;
            }
        }
        lookUpAll(List.of());
    }

    /** A paid look-up gives its hit cost back to its end user's bucket and its bank's, with the next batch. */
    public void paid(List<Reserved> lookups) {
        synchronized (refunds) {
            for (Reserved lookup : lookups) {
                refund(new BucketId(lookup.participant(), lookup.payerId()), policy.userHitCost());
                refund(new BucketId(lookup.participant(), null), policy.participantHitCost());
            }
        }
    }

    /** The bank's own bucket and, if {@code payerId} is given, that end user's: levels now. */
    public List<Level> levels(BankId bank, String payerId) {
        Set<BucketId> asked = new LinkedHashSet<>();
        asked.add(participant(bank));
        if (payerId != null) {
            asked.add(new BucketId(Caller.BANK_PREFIX + bank, payerId));
        }
        LookupStore.Levels stored = store.levels(asked);
        List<Level> levels = new ArrayList<>(asked.size());
        for (BucketId bucket : asked) {
            TokenBucket.Limits limits = limits(bucket);
            TokenBucket level = stored.stored().getOrDefault(bucket, TokenBucket.full(limits, stored.now()));
            levels.add(new Level(bucket, level.at(stored.now(), limits).tokens(), limits));
        }
        return levels;
    }

    private Decided decide(
            List<Ask> asks,
            Instant now,
            Map<BucketId, TokenBucket> stored,
            Map<PixKey, KeyEntry> found,
            Answer[] answers) {
        Map<BucketId, TokenBucket> levels = new TreeMap<>(BUCKET_ORDER);
        for (Map.Entry<BucketId, TokenBucket> bucket : stored.entrySet()) {
            levels.put(bucket.getKey(), bucket.getValue().at(now, limits(bucket.getKey())));
        }
        List<Reserved> reserved = new ArrayList<>();
        for (int i = 0; i < asks.size(); i++) {
            Ask ask = asks.get(i);
            BucketId userId = user(ask);
            BucketId participantId = participant(ask.bank());
            TokenBucket user = levels.get(userId);
            TokenBucket participant = levels.get(participantId);
            double userNeeds = AntiScanPolicy.admissionLevel(policy.userHitCost());
            double participantNeeds = AntiScanPolicy.admissionLevel(policy.participantHitCost());
            if (user.tokens() < userNeeds) {
                answers[i] = limited(
                        "your end user " + ask.payerId(), user.secondsUntil(userNeeds, policy.user(ask.payerId())));
                continue;
            }
            if (participant.tokens() < participantNeeds) {
                answers[i] = limited("your bank", participant.secondsUntil(participantNeeds, policy.participant()));
                continue;
            }
            KeyEntry entry = found.get(ask.key());
            if (entry == null) {
                levels.put(userId, user.take(policy.userMissCost()));
                levels.put(participantId, participant.take(policy.participantMissCost()));
                answers[i] = new Answer.Missing(ask.key());
                continue;
            }
            levels.put(userId, user.take(policy.userHitCost()));
            levels.put(participantId, participant.take(policy.participantHitCost()));
            PixId endToEndId = PixId.generated(PixId.Kind.END_TO_END, ask.bank(), now, ids.nextPaymentId());
            reserved.add(new Reserved(
                    participantId.participant(), endToEndId, ask.key(), entry.account(), ask.payerId(), now));
            answers[i] = new Answer.Found(entry, endToEndId, now);
        }
        for (Map.Entry<BucketId, TokenBucket> level : levels.entrySet()) {
            if (level.getKey().participants() && banksLevels.size() < REFUNDS_MAX) {
                banksLevels.put(level.getKey().participant(), level.getValue().tokens());
            }
        }
        return new Decided(new LinkedHashMap<>(levels), reserved);
    }

    private static final java.util.Comparator<BucketId> BUCKET_ORDER = java.util.Comparator.comparing(
                    BucketId::participant)
            .thenComparing(BucketId::payerId, java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()));

    private Answer limited(String whose, long retryAfterSeconds) {
        return new Answer.Limited(Refusal.retryAfter(
                RefusalReason.LOOK_UP_RATE_LIMITED,
                retryAfterSeconds,
                "the look-up bucket of " + whose + " is empty: too many look-ups, or look-ups of keys that do not"
                        + " exist (each costs " + policy.userMissCost() + " tokens of an end user's bucket and "
                        + policy.participantMissCost() + " of the bank's); nothing was looked up"));
    }

    private TokenBucket.Limits limits(BucketId bucket) {
        return bucket.participants() ? policy.participant() : policy.user(bucket.payerId());
    }

    private static BucketId user(Ask ask) {
        return new BucketId(Caller.BANK_PREFIX + ask.bank(), ask.payerId());
    }

    private static BucketId participant(BankId bank) {
        return new BucketId(Caller.BANK_PREFIX + bank, null);
    }

    private void refund(BucketId bucket, int tokens) {
        if (tokens == 0 || (refunds.size() >= REFUNDS_MAX && !refunds.containsKey(bucket))) {
            return;
        }
        refunds.merge(bucket, (double) tokens, Double::sum);
    }

    private Map<BucketId, Double> takeRefunds() {
        synchronized (refunds) {
            if (refunds.isEmpty()) {
                return Map.of();
            }
            Map<BucketId, Double> taken = new HashMap<>(refunds);
            refunds.clear();
            return taken;
        }
    }

    private void putBack(Map<BucketId, Double> refunding) {
        synchronized (refunds) {
            for (Map.Entry<BucketId, Double> refund : refunding.entrySet()) {
                if (refunds.size() < REFUNDS_MAX || refunds.containsKey(refund.getKey())) {
                    refunds.merge(refund.getKey(), refund.getValue(), Double::sum);
                }
            }
        }
    }
}
