package io.pagora.service.metrics;

import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * The one shape of every Pagora latency timer, so that Grafana's {@code histogram_quantile} gives p50,
 * p95 and p99 of any of them and the SLO boundaries line up across services: a percentile histogram
 * (Micrometer's default buckets, bounded to [1 ms, 60 s]) plus explicit buckets at the SLO boundaries
 * below, which an operator reads directly as "share of requests under 100 ms".
 */
public final class LatencyHistograms {

    /** The service-level objective boundaries of every latency, in seconds: 5 ms to 60 s. */
    public static final Duration[] SLOS = {
        Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
        Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
        Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30),
        Duration.ofSeconds(60)
    };

    /** Below and above these, the percentile histogram has no buckets (keeps each histogram ~70 series). */
    public static final Duration MINIMUM_EXPECTED = Duration.ofMillis(1);

    public static final Duration MAXIMUM_EXPECTED = Duration.ofSeconds(60);

    private LatencyHistograms() {}

    /** A timer builder with the histogram and SLO buckets set; add tags and register it. */
    public static Timer.Builder timer(String name, String description) {
        return Timer.builder(name)
                .description(description)
                .publishPercentileHistogram()
                .serviceLevelObjectives(SLOS)
                .minimumExpectedValue(MINIMUM_EXPECTED)
                .maximumExpectedValue(MAXIMUM_EXPECTED);
    }
}
