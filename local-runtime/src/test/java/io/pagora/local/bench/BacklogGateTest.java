package io.pagora.local.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The backlog gate on a modelled platform: one bulk call of {@code RATE} payments answered each second, settled
 * 280 ms later, made final in the read model at flushes whose period drifts from the bench's second by 3 ms.
 */
class BacklogGateTest {

    private static final double RATE = 500;
    private static final int WINDOW_S = 60;
    private static final double FLUSH_PERIOD_S = 1.003;

    @Test
    void aHeldStepsSawIsNotGrowthWhenReadAtTicks() {
        assertThat(growing(samples(BacklogGateTest::held, 1, 0.05)))
                .as("read once a second: the drift crosses a flush")
                .isTrue();
        for (double phase = 0; phase < 1; phase += 0.05) {
            assertThat(growing(samples(BacklogGateTest::held, Bench.BACKLOG_SAMPLES_PER_SECOND, phase)))
                    .as("read at ticks, the bench's clock at %.2f s", phase)
                    .isFalse();
        }
    }

    @Test
    void aStepThatFallsBehindIsGrowingHoweverItIsRead() {
        // Made final 1.5 % slower than accepted: 7.5 payments a second pile up, 450 over the window.
        DoubleUnaryOperator fallingBehind = t -> held(t) + 0.015 * RATE * t;

        for (double phase = 0; phase < 1; phase += 0.05) {
            assertThat(growing(samples(fallingBehind, Bench.BACKLOG_SAMPLES_PER_SECOND, phase)))
                    .as("the bench's clock at %.2f s", phase)
                    .isTrue();
        }
    }

    @Test
    void quarterMeansAreOfTheFirstAndLastQuarter() {
        List<Long> samples = List.of(1L, 3L, 10L, 10L, 10L, 10L, 5L, 7L);

        assertThat(Bench.quarterMean(samples, true)).isEqualTo(2.0);
        assertThat(Bench.quarterMean(samples, false)).isEqualTo(6.0);
        assertThat(Bench.quarterMean(List.of(), true)).isZero();
    }

    private static boolean growing(List<Long> samples) {
        return Bench.gateFailures(new Bench.GateFigures(
                        RATE,
                        RATE,
                        RATE,
                        1.0,
                        0,
                        0,
                        0,
                        0,
                        Bench.quarterMean(samples, true),
                        Bench.quarterMean(samples, false)))
                .stream()
                .anyMatch(failure -> failure.startsWith("backlog growing"));
    }

    /** The backlog read {@code perSecond} times a second over the window, the bench's clock offset by {@code phase}. */
    private static List<Long> samples(DoubleUnaryOperator backlog, int perSecond, double phase) {
        List<Long> samples = new ArrayList<>();
        for (int i = 1; i < WINDOW_S * perSecond; i++) {
            samples.add(Math.round(backlog.applyAsDouble(phase + (double) i / perSecond)));
        }
        return samples;
    }

    private static double held(double t) {
        return accepted(t) - finalized(t);
    }

    /** Calls answered at each whole second, 50 ms after they were sent. */
    private static double accepted(double t) {
        return RATE * Math.floor(t - 0.05 + 1);
    }

    /** Payments settled 280 ms after being accepted, made final at the flush that follows. */
    private static double finalized(double t) {
        double lastFlush = FLUSH_PERIOD_S * Math.floor(t / FLUSH_PERIOD_S);
        return Math.min(accepted(lastFlush - 0.28), accepted(t));
    }
}
