package io.pagora.local.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The degraded seconds: below half the steady settled/s of the stretch before the fault, from the fault to the end. */
class SettledRateTest {

    static final Instant LOAD_START = Instant.ofEpochSecond(1_000);
    static final Instant FAULT_START = LOAD_START.plusSeconds(15);
    static final Instant LOAD_END = FAULT_START.plusSeconds(30);

    @Test
    void counts_the_seconds_settlement_stayed_below_half_its_steady_rate() {
        Map<Long, Integer> settled = steady(200);
        // The fault: 4 seconds at nothing, 2 at 90 (below 100, half of 200), 1 at 100 (not below half), then steady.
        for (long second = 0; second < 4; second++) {
            settled.put(FAULT_START.getEpochSecond() + second, 0);
        }
        settled.put(FAULT_START.getEpochSecond() + 4, 90);
        settled.put(FAULT_START.getEpochSecond() + 5, 90);
        settled.put(FAULT_START.getEpochSecond() + 6, 100);

        assertThat(SettledRate.degradedSeconds(settled, LOAD_START, FAULT_START, LOAD_END))
                .isEqualTo(6);
    }

    @Test
    void a_second_with_nothing_recorded_counts_as_nothing_settled() {
        Map<Long, Integer> settled = steady(50);
        settled.remove(FAULT_START.getEpochSecond() + 10);

        assertThat(SettledRate.degradedSeconds(settled, LOAD_START, FAULT_START, LOAD_END))
                .isEqualTo(1);
    }

    @Test
    void without_a_steady_stretch_before_the_fault_there_is_no_figure() {
        Map<Long, Integer> settled = steady(200);

        assertThat(SettledRate.degradedSeconds(settled, LOAD_START, LOAD_START.plusSeconds(5), LOAD_END))
                .as("too short a stretch before the fault")
                .isEqualTo(-1);
        assertThat(SettledRate.degradedSeconds(new HashMap<>(), LOAD_START, FAULT_START, LOAD_END))
                .as("nothing settled before the fault")
                .isEqualTo(-1);
    }

    /** {@code rate} settled every second from the load's start to its end. */
    private static Map<Long, Integer> steady(int rate) {
        Map<Long, Integer> settled = new HashMap<>();
        for (long second = LOAD_START.getEpochSecond(); second < LOAD_END.getEpochSecond(); second++) {
            settled.put(second, rate);
        }
        return settled;
    }
}
