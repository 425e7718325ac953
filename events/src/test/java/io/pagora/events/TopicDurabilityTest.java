package io.pagora.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Topic durability is explicit and coherent: 1/1 on one broker, 3/2 on a cluster, nothing in between that lies. */
class TopicDurabilityTest {

    @Test
    void theTwoEnvironmentsAreAccepted() {
        assertThat(new TopicDurability(1, 1).topicConfigs()).containsEntry("min.insync.replicas", "1");
        assertThat(new TopicDurability(3, 2).topicConfigs()).containsEntry("min.insync.replicas", "2");
    }

    @Test
    void incoherentSettingsAreRefusedAtStartup() {
        assertThatThrownBy(() -> new TopicDurability(1, 2))
                .hasMessageContaining("min.insync.replicas in [1, replication factor 1]");
        assertThatThrownBy(() -> new TopicDurability(3, 1)).hasMessageContaining("at least 2");
        assertThatThrownBy(() -> new TopicDurability(0, 1)).hasMessageContaining("replication factor in [1, 7]");
    }
}
