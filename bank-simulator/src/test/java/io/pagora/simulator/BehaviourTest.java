package io.pagora.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.simulator.Behaviour.Decision;
import io.pagora.simulator.Behaviour.Mode;
import org.junit.jupiter.api.Test;

/** Which instructions a bank accepts, refuses or leaves unanswered, and how long it takes, as configured. */
class BehaviourTest {

    @Test
    void theAcceptShareIsAcceptedTheRefuseShareRefusedAndTheRestUnanswered() {
        Behaviour behaviour = new Behaviour(0.90, 0.05, 0, 0, Mode.UP, 0);

        assertThat(behaviour.decide(0.0)).isEqualTo(Decision.ACCEPT);
        assertThat(behaviour.decide(0.8999)).isEqualTo(Decision.ACCEPT);
        assertThat(behaviour.decide(0.90)).isEqualTo(Decision.REFUSE);
        assertThat(behaviour.decide(0.9499)).isEqualTo(Decision.REFUSE);
        assertThat(behaviour.decide(0.9501)).isEqualTo(Decision.NONE);
        assertThat(behaviour.decide(0.9999)).isEqualTo(Decision.NONE);
    }

    @Test
    void sharesOfOneAndZeroDecideEveryInstructionAlike() {
        assertThat(new Behaviour(1, 0, 0, 0, Mode.UP, 0).decide(0.9999)).isEqualTo(Decision.ACCEPT);
        assertThat(new Behaviour(0, 1, 0, 0, Mode.UP, 0).decide(0.0)).isEqualTo(Decision.REFUSE);
        assertThat(new Behaviour(0, 0, 0, 0, Mode.UP, 0).decide(0.0)).isEqualTo(Decision.NONE);
    }

    @Test
    void sharesOutsideZeroToOneOrAboveOneTogetherAreRefused() {
        assertThatThrownBy(() -> new Behaviour(0.96, 0.05, 0, 0, Mode.UP, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 1 together");
        assertThatThrownBy(() -> new Behaviour(-0.1, 0.05, 0, 0, Mode.UP, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Behaviour(0.9, 0.05, 600_001, 0, Mode.UP, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("latencies");
    }

    @Test
    void theDelayIsTheLatencyPlusTheSlowModesWaitAndAJitterOfAtMostTenMeans() {
        Behaviour up = new Behaviour(1, 0, 40, 0, Mode.UP, 0);
        Behaviour jittery = new Behaviour(1, 0, 40, 5, Mode.UP, 0);

        assertThat(up.delayMs()).isEqualTo(40);
        assertThat(up.withMode(Mode.SLOW, 300).delayMs()).isEqualTo(340);
        assertThat(up.withMode(Mode.SLOW, 300).withMode(Mode.UP, 0).delayMs()).isEqualTo(40);
        for (int i = 0; i < 1_000; i++) {
            assertThat(jittery.delayMs()).isBetween(40L, 90L);
        }
    }
}
