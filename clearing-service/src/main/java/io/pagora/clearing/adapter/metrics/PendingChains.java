package io.pagora.clearing.adapter.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.kernel.Check;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The pending chains this clearing process holds: reserved in the ledger (the receiving bank was asked
 * about them, which happens only for reserved chains) and not yet resolved by an acknowledged outcome —
 * chains inside a running batch and chains parked for the expiry worker alike. An outcome resolves the chain
 * whichever instance published it: this one when it does, any other through the outcomes follower (with
 * participants, answers are applied by the instance owning their partition). Exported as
 * {@value #CHAINS} and {@value #OLDEST_AGE} (seconds): a growing count or age means receiving banks do
 * not answer, or the expiry worker lags behind its deadlines; and per receiving bank as {@value #AWAITING}
 * (tag {@code bank}): the payments waiting for that bank's answer, which grows for a bank that is down or slow.
 *
 * <p>Bounded in time and size. A chain is forgotten {@code forgetAfter} after it was reserved, chosen
 * beyond the pending timeout plus the expiry margin: by then the ledger itself has expired it (so it is
 * no longer pending), and an entry whose outcome was missed (a follower behind or down), or whose batch was
 * dead-lettered, cannot stay forever. At most {@code capacity} chains are held; beyond that the oldest is
 * forgotten. A restarted process does not know the chains its predecessor parked: they are resolved
 * within one pending timeout, meanwhile the expiry consumer's lag shows them.
 */
public final class PendingChains {

    public static final String CHAINS = "pagora.clearing.pending.chains";
    public static final String OLDEST_AGE = "pagora.clearing.pending.oldest.age";
    public static final String AWAITING = "pagora.clearing.awaiting.answer";

    /** A reserved chain and the bank whose answer it waits for. */
    public record Chain(PaymentId payment, BankId receivingBank) {}

    private record Entry(Instant reservedAt, BankId bank) {}

    private final Clock clock;
    private final Duration forgetAfter;
    private final int capacity;
    private final MeterRegistry registry;
    /** Told the age of every chain resolved by an outcome (null: nobody listens). */
    private final AnswerTimes answerTimes;
    /** Insertion order = reservation order (one clock), so the first entry is the oldest. */
    private final LinkedHashMap<PaymentId, Entry> reservedAt = new LinkedHashMap<>();
    /** Chains per receiving bank: at most one entry per bank that was ever instructed (a bounded set, the participants). */
    private final Map<BankId, Integer> awaiting = new HashMap<>();

    public PendingChains(Clock clock, Duration forgetAfter, int capacity, MeterRegistry registry) {
        this(clock, forgetAfter, capacity, registry, null);
    }

    public PendingChains(
            Clock clock, Duration forgetAfter, int capacity, MeterRegistry registry, AnswerTimes answerTimes) {
        Check.that(forgetAfter.toMillis() > 0, "forgetAfter must be positive: %s", forgetAfter);
        Check.that(capacity > 0, "capacity must be positive: %d", capacity);
        this.clock = clock;
        this.forgetAfter = forgetAfter;
        this.capacity = capacity;
        this.registry = registry;
        this.answerTimes = answerTimes;
        Gauge.builder(CHAINS, this, PendingChains::count)
                .description(
                        "Chains reserved in the ledger and not yet posted, voided or expired (parked unanswered included)")
                .register(registry);
        Gauge.builder(OLDEST_AGE, this, chains -> chains.oldestAge().toNanos() / 1e9)
                .description("Age of the oldest pending chain (0 when there is none)")
                .baseUnit("seconds")
                .register(registry);
    }

    /** These chains are pending from now on (an already pending one keeps its first time). */
    public synchronized void reserved(Iterable<Chain> chains) {
        Instant now = clock.instant();
        for (Chain chain : chains) {
            if (reservedAt.putIfAbsent(chain.payment(), new Entry(now, chain.receivingBank())) == null) {
                counted(chain.receivingBank(), +1);
            }
        }
        forgetOld(now);
        while (reservedAt.size() > capacity) {
            Iterator<Map.Entry<PaymentId, Entry>> oldest = reservedAt.entrySet().iterator();
            counted(oldest.next().getValue().bank(), -1);
            oldest.remove();
        }
    }

    /** The chains of these payments are resolved (their outcome is acknowledged); unknown ones are ignored. */
    public synchronized void resolved(Iterable<PaymentId> payments) {
        Instant now = clock.instant();
        for (PaymentId payment : payments) {
            Entry entry = reservedAt.remove(payment);
            if (entry != null) {
                counted(entry.bank(), -1);
                if (answerTimes != null) {
                    Duration age = Duration.between(entry.reservedAt(), now);
                    answerTimes.resolvedAfter(entry.bank(), age.isNegative() ? Duration.ZERO : age);
                }
            }
        }
    }

    /** Pending chains waiting for this bank's answer. */
    public synchronized int awaiting(BankId bank) {
        forgetOld(clock.instant());
        return awaiting.getOrDefault(bank, 0);
    }

    private void counted(BankId bank, int change) {
        Integer before = awaiting.put(bank, awaiting.getOrDefault(bank, 0) + change);
        if (before == null) {
            Gauge.builder(AWAITING, this, chains -> chains.awaiting(bank))
                    .description(
                            "Payments instructed to the receiving bank and not yet resolved by its answer or expiry")
                    .tag("bank", bank.toString())
                    .register(registry);
        }
    }

    public synchronized int count() {
        forgetOld(clock.instant());
        return reservedAt.size();
    }

    public synchronized Duration oldestAge() {
        Instant now = clock.instant();
        forgetOld(now);
        if (reservedAt.isEmpty()) {
            return Duration.ZERO;
        }
        Duration age = Duration.between(reservedAt.firstEntry().getValue().reservedAt(), now);
        return age.isNegative() ? Duration.ZERO : age;
    }

    private void forgetOld(Instant now) {
        Instant horizon = now.minus(forgetAfter);
        Iterator<Map.Entry<PaymentId, Entry>> entries = reservedAt.entrySet().iterator();
        while (entries.hasNext()) {
            Entry entry = entries.next().getValue();
            if (!entry.reservedAt().isBefore(horizon)) {
                return;
            }
            counted(entry.bank(), -1);
            entries.remove();
        }
    }
}
