package io.pagora.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The overload run's gate: what it takes for one bank's flood to count as answered, and fairly. */
class OverloadBenchTest {

    private static final OverloadBench.Phase ALONE = phase("alone", new double[] {5, 8, 10}, Map.of(), Map.of("202", 3L), 0);

    @Test
    void aFloodAnsweredWithAcceptancesAndRetryAfterWhileTheSecondBankKeepsItsLatencyHolds() {
        OverloadBench.Phase flooded = phase("flood", new double[] {6, 9, 19},
                Map.of("202", 750L, "429 with Retry-After", 1_250L, "503 outcome-unknown", 3L), Map.of("202", 3L), 0);

        assertThat(OverloadBench.failures(ALONE, flooded)).isEmpty();
    }

    @Test
    void aCallLeftWithoutAnAnswerOrA429WithoutRetryAfterFails() {
        OverloadBench.Phase flooded = phase("flood", new double[] {6, 9, 12},
                Map.of("202", 750L, "429 with Retry-After", 1_000L, "no answer: HttpTimeoutException", 2L,
                        "429 without Retry-After", 1L), Map.of("202", 3L), 4);

        assertThat(OverloadBench.failures(ALONE, flooded))
                .anySatisfy(f -> assertThat(f).contains("no answer: HttpTimeoutException=2").contains("429 without Retry-After=1"))
                .anySatisfy(f -> assertThat(f).contains("4 calls found no room"));
    }

    @Test
    void aFloodThatNeverMetALimitTestedNothing() {
        OverloadBench.Phase flooded = phase("flood", new double[] {6, 9, 12}, Map.of("202", 2_000L), Map.of("202", 3L), 0);

        assertThat(OverloadBench.failures(ALONE, flooded)).anySatisfy(f -> assertThat(f).contains("never answered 429"));
    }

    @Test
    void theSecondBanksP99AboveTwiceItsOwnAloneFails() {
        OverloadBench.Phase flooded = phase("flood", new double[] {6, 9, 21},
                Map.of("202", 750L, "429 with Retry-After", 1_250L), Map.of("202", 3L), 0);

        assertThat(OverloadBench.failures(ALONE, flooded)).singleElement()
                .satisfies(f -> assertThat(f).contains("p99 21.0 ms with the flood is above 2x its 10.0 ms alone"));
    }

    @Test
    void theSecondBankRefusedOrSilentFails() {
        OverloadBench.Phase silent = phase("alone", new double[0], Map.of(), Map.of(), 0);
        OverloadBench.Phase flooded = phase("flood", new double[] {6, 9, 12},
                Map.of("202", 750L, "429 with Retry-After", 1_250L), Map.of("202", 2L, "429 with Retry-After", 1L), 0);

        assertThat(OverloadBench.failures(silent, flooded))
                .anySatisfy(f -> assertThat(f).contains("alone: the second bank had 0 of 0 calls accepted"))
                .anySatisfy(f -> assertThat(f).contains("flood: the second bank had 2 of 3 calls accepted"));
    }

    private static OverloadBench.Phase phase(String name, double[] secondMs, Map<String, Long> flood, Map<String, Long> second,
            long floodDropped) {
        return new OverloadBench.Phase(name, secondMs, flood, second, floodDropped, 0, Map.of(), 0, 60);
    }
}
