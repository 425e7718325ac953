package io.pagora.service.config;

import io.pagora.events.TopicDurability;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How durable the topics are, one setting for every service (whichever starts first creates a topic):
 * {@code pagora.topics.replication-factor} and {@code pagora.topics.min-insync-replicas}, 1 / 1 on one local broker,
 * 3 / 2 on a cluster ({@link TopicDurability}). An incoherent pair refuses the start, naming the keys.
 */
@ConfigurationProperties("pagora.topics")
public record TopicsProperties(
        @DefaultValue("1") int replicationFactor,
        @DefaultValue("1") int minInsyncReplicas) {

    public TopicsProperties {
        durability(replicationFactor, minInsyncReplicas);
    }

    public TopicDurability durability() {
        return durability(replicationFactor, minInsyncReplicas);
    }

    private static TopicDurability durability(int replicationFactor, int minInsyncReplicas) {
        try {
            return new TopicDurability(replicationFactor, minInsyncReplicas);
        } catch (IllegalArgumentException incoherent) {
            throw new IllegalArgumentException(
                    "pagora.topics.replication-factor=%d, pagora.topics.min-insync-replicas=%d: %s"
                            .formatted(replicationFactor, minInsyncReplicas, incoherent.getMessage()));
        }
    }
}
