package io.pagora.payments.api.application.limits;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * The shared limit store in memory, on the test's clock: the same arithmetic as the PostgreSQL statement (refill by
 * elapsed time up to the burst less what the live instances hold, returned tokens back, debts off, whole tokens
 * granted, what the instance holds recorded), and a switch that can be cut ({@link #reachable}).
 */
final class InMemorySharedLimitStore implements SharedLimitStore {

    private final LongSupplier nanoTime;
    private final Map<String, double[]> buckets = new HashMap<>();
    private final Map<UUID, Long> seenAtNanos = new HashMap<>();
    /** Per bucket, what each instance holds as it last said. */
    private final Map<String, Map<UUID, Long>> held = new HashMap<>();

    boolean reachable = true;
    int leaseRounds;

    InMemorySharedLimitStore(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    @Override
    public synchronized List<Grant> lease(UUID instance, long liveMillis, List<Lease> leases) {
        reach();
        leaseRounds++;
        long now = nanoTime.getAsLong();
        List<Grant> grants = new ArrayList<>(leases.size());
        for (Lease lease : leases) {
            // {tokens, refilledAtNanos}
            double[] bucket = buckets.computeIfAbsent(
                    lease.bucket() + " " + lease.participant(), key -> new double[] {lease.burst(), now});
            Map<UUID, Long> holders =
                    held.computeIfAbsent(lease.bucket() + " " + lease.participant(), key -> new HashMap<>());
            long heldOut = holders.entrySet().stream()
                    .filter(holder -> live(holder.getKey(), now, liveMillis))
                    .mapToLong(Map.Entry::getValue)
                    .sum();
            double refilled = Math.min(
                    Math.max(0, lease.burst() - heldOut),
                    bucket[0] + lease.refillPerSecond() * Math.max(0, now - bucket[1]) / 1e9);
            double tokens = refilled + lease.returned() - lease.debt();
            long granted = Math.min(lease.want(), Math.max(0, (long) Math.floor(tokens)));
            bucket[0] = tokens - granted;
            bucket[1] = now;
            holders.put(instance, lease.kept() + granted);
            grants.add(new Grant(granted, bucket[0]));
        }
        return grants;
    }

    @Override
    public synchronized int heartbeat(UUID instance, long liveMillis) {
        reach();
        long now = nanoTime.getAsLong();
        seenAtNanos.put(instance, now);
        return (int) seenAtNanos.values().stream()
                .filter(seen -> now - seen < liveMillis * 1_000_000)
                .count();
    }

    @Override
    public synchronized void leave(UUID instance) {
        reach();
        seenAtNanos.remove(instance);
    }

    /** What the shared bucket holds now, as of its last exchange (not refilled since). */
    synchronized double tokens(String bucket, String participant) {
        return buckets.get(bucket + " " + participant)[0];
    }

    private boolean live(UUID instance, long now, long liveMillis) {
        Long seen = seenAtNanos.get(instance);
        return seen != null && now - seen < liveMillis * 1_000_000;
    }

    private void reach() {
        if (!reachable) {
            throw new IllegalStateException("the store is out of reach");
        }
    }
}
