package io.pagora.local.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.pagora.settlement.domain.BankId;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The overload run's gate: what it takes for one bank's flood to count as answered, and fairly — judged on
 * payment-api's own account of the calls it read (its metrics), the load generator's view apart.
 */
class OverloadBenchTest {

    private static final BankId SECOND = new BankId(2);
    private static final OverloadBench.Phase ALONE =
            phase("alone", ParticipantCalls.NONE, server(Map.of("202", 3L), 10), new double[] {5, 8, 10}, 0);

    @Test
    void aFloodAnsweredAtOnceWhileTheSecondBankKeepsItsServerLatencyHolds() {
        OverloadBench.Phase flooded = phase(
                "flood",
                server(Map.of("202", 750L, "429-retry-after", 1_250L, "503-outcome-unknown", 3L), 30),
                server(Map.of("202", 3L), 19),
                new double[] {6, 9, 19},
                0);

        assertThat(OverloadBench.failures(ALONE, flooded)).isEmpty();
    }

    /** The generator shares the cores with the flood: its own drops and queueing are its own, not the server's. */
    @Test
    void theGeneratorsOwnDropsAndSlowViewWithTheServerAnsweringEveryCallAtOnceHold() {
        OverloadBench.Phase flooded = phase(
                "flood",
                server(Map.of("202", 750L, "429-retry-after", 1_250L), 30),
                server(Map.of("202", 3L), 12),
                new double[] {60, 90, 900},
                40);

        assertThat(OverloadBench.failures(ALONE, flooded)).isEmpty();
    }

    @Test
    void aCallTheServerReadAndAnsweredOtherwiseFails() {
        OverloadBench.Phase flooded = phase(
                "flood",
                server(Map.of("202", 750L, "429-retry-after", 1_000L, "5xx-other", 2L, "503-other", 1L), 30),
                server(Map.of("202", 3L), 12),
                new double[] {6, 9, 12},
                0);

        assertThat(OverloadBench.failures(ALONE, flooded))
                .singleElement()
                .satisfies(f -> assertThat(f)
                        .startsWith("the flooding bank: payment-api answered calls it read other than 202")
                        .contains("5xx-other=2")
                        .contains("503-other=1"));
    }

    @Test
    void aFloodThatNeverMetALimitTestedNothing() {
        OverloadBench.Phase flooded = phase(
                "flood", server(Map.of("202", 2_000L), 30), server(Map.of("202", 3L), 12), new double[] {6, 9, 12}, 0);

        assertThat(OverloadBench.failures(ALONE, flooded))
                .anySatisfy(f -> assertThat(f).contains("never answered 429"));
    }

    @Test
    void theSecondBanksServerP99AboveTwiceItsOwnAloneFails() {
        // p99 of 100 calls all in the bucket (0, x]: 0.99 x, so 9.90 ms alone and 20.79 ms with the flood.
        OverloadBench.Phase flooded = phase(
                "flood",
                server(Map.of("202", 750L, "429-retry-after", 1_250L), 30),
                server(Map.of("202", 3L), 21),
                new double[] {6, 9, 12},
                0);

        assertThat(OverloadBench.failures(ALONE, flooded))
                .singleElement()
                .satisfies(f -> assertThat(f)
                        .contains(
                                "p99 answer time on the server 20.79 ms with the flood is above 2x its 9.90 ms alone"));
    }

    @Test
    void theSecondBankRefusedOrUnseenByTheServerFails() {
        OverloadBench.Phase unseen = phase("alone", ParticipantCalls.NONE, ParticipantCalls.NONE, new double[0], 0);
        OverloadBench.Phase flooded = phase(
                "flood",
                server(Map.of("202", 750L, "429-retry-after", 1_250L), 30),
                server(Map.of("202", 2L, "429-retry-after", 1L), 12),
                new double[] {6, 9, 12},
                0);

        assertThat(OverloadBench.failures(unseen, flooded))
                .anySatisfy(f -> assertThat(f)
                        .contains("alone: payment-api accepted 0 of the 0 calls it read from the" + " second bank")
                        .contains("no pagora_payments_participant_* series"))
                .anySatisfy(f -> assertThat(f).contains("flood: payment-api accepted 2 of the 3 calls it read"));
    }

    /** Two scrapes of payment-api's page: the window is their difference, its percentiles from the bucket deltas. */
    @Test
    void theServersPercentilesComeFromTheHistogramsBucketDeltasOfOneBankAndEndpoint() {
        String before = exposition(new long[] {10, 20, 30, 30, 30}, 0.05, Map.of("202", 30L))
                + exposition("00000009", "single", new long[] {0, 0, 0, 500, 500}, 9, Map.of("202", 500L));
        String after = exposition(new long[] {10, 70, 128, 130, 130}, 0.35, Map.of("202", 128L, "429-retry-after", 2L))
                + exposition("00000002", "batch", new long[] {0, 0, 0, 900, 900}, 9, Map.of("200", 900L));

        ParticipantCalls window = ParticipantCalls.of(after, SECOND).minus(ParticipantCalls.of(before, SECOND));

        assertThat(window.timed()).isEqualTo(100);
        assertThat(window.callsByAnswer())
                .containsExactlyInAnyOrderEntriesOf(Map.of("202", 98L, "429-retry-after", 2L));
        // Deltas 0, 50, 98, 100 | 100 by 1, 2, 4, 8 ms: rank 99 is half-way into (4, 8] ms, rank 50 the top of (1, 2].
        assertThat(window.percentileMs(99)).isCloseTo(6.0, within(1e-9));
        assertThat(window.percentileMs(50)).isCloseTo(2.0, within(1e-9));
        assertThat(window.meanMs()).isCloseTo(3.0, within(1e-9));
        assertThat(window.notAnswered()).isEmpty();
    }

    @Test
    void aRankInTheOpenBucketIsTheHighestFiniteBound() {
        ParticipantCalls slow = ParticipantCalls.of(exposition(new long[] {0, 0, 0, 90, 100}, 1, Map.of()), SECOND);

        assertThat(slow.percentileMs(99)).isEqualTo(8.0);
        assertThat(ParticipantCalls.NONE.percentileMs(99)).isNaN();
    }

    /** The second bank's single-endpoint series, as payment-api's Prometheus page writes them. */
    private static String exposition(long[] cumulative, double sumSeconds, Map<String, Long> calls) {
        return exposition("00000002", "single", cumulative, sumSeconds, calls);
    }

    private static String exposition(
            String participant, String endpoint, long[] cumulative, double sumSeconds, Map<String, Long> calls) {
        String[] bounds = {"0.001", "0.002", "0.004", "0.008", "+Inf"};
        String labels = "application=\"payment-api\",endpoint=\"" + endpoint + "\",participant=\"" + participant + "\"";
        StringBuilder text = new StringBuilder("# TYPE pagora_payments_participant_answer_seconds histogram\n");
        for (int i = 0; i < bounds.length; i++) {
            text.append("pagora_payments_participant_answer_seconds_bucket{")
                    .append(labels)
                    .append(",le=\"")
                    .append(bounds[i])
                    .append("\"} ")
                    .append(cumulative[i])
                    .append(".0\n");
        }
        text.append("pagora_payments_participant_answer_seconds_count{")
                .append(labels)
                .append("} ")
                .append(cumulative[bounds.length - 1])
                .append('\n');
        text.append("pagora_payments_participant_answer_seconds_sum{")
                .append(labels)
                .append("} ")
                .append(sumSeconds)
                .append('\n');
        new TreeMap<>(calls)
                .forEach((answer, count) -> text.append("pagora_payments_participant_calls_total{answer=\"")
                        .append(answer)
                        .append("\",")
                        .append(labels)
                        .append("} ")
                        .append(count)
                        .append(".0\n"));
        return text.toString();
    }

    /** The server's account: these calls, and 100 answer times all in the bucket (0, {@code bucketMs}]. */
    private static ParticipantCalls server(Map<String, Long> calls, double bucketMs) {
        return new ParticipantCalls(
                calls,
                new double[] {bucketMs / 1_000, Double.POSITIVE_INFINITY},
                new long[] {100, 100},
                bucketMs / 1_000 * 50);
    }

    private static OverloadBench.Phase phase(
            String name, ParticipantCalls flood, ParticipantCalls second, double[] clientMs, long floodDropped) {
        return new OverloadBench.Phase(
                name, flood, second, second, clientMs, Map.of(), Map.of("202", 3L), floodDropped, 0, Map.of(), 0, 60);
    }
}
