package io.pagora.events;

import java.util.Map;

/**
 * How durable the topics are: their replication factor and {@code min.insync.replicas}, set per
 * environment and the same in every service (whichever service starts first creates a topic). With
 * {@code acks=all}, a write is acknowledged once {@code minInsyncReplicas} replicas hold it, so that
 * many brokers can be lost without losing an acknowledged payment, minus one.
 *
 * <ul>
 *   <li>one local broker: 1 / 1 — nothing survives the loss of that broker's disk;
 *   <li>any multi-broker cluster: 3 / 2 — one broker may fail (or be restarted) with no loss and no
 *       unavailability; with 2 of 3 down, writes stop rather than risk a payment.
 * </ul>
 */
public record TopicDurability(int replicationFactor, int minInsyncReplicas) {

    public TopicDurability {
        if (replicationFactor < 1 || replicationFactor > 7) {
            throw new IllegalArgumentException("topic replication factor in [1, 7]: " + replicationFactor);
        }
        if (minInsyncReplicas < 1 || minInsyncReplicas > replicationFactor) {
            throw new IllegalArgumentException(
                    "min.insync.replicas in [1, replication factor " + replicationFactor + "]: " + minInsyncReplicas);
        }
        if (replicationFactor >= 3 && minInsyncReplicas < 2) {
            // A replicated topic that acknowledges a write held by one broker only loses it with that broker.
            throw new IllegalArgumentException("a topic replicated " + replicationFactor + " times needs"
                    + " min.insync.replicas of at least 2, got " + minInsyncReplicas);
        }
    }

    /** The topic-level configs to create every topic with. */
    public Map<String, String> topicConfigs() {
        return Map.of("min.insync.replicas", Integer.toString(minInsyncReplicas));
    }
}
