package io.pagora.simulator;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * The simulator's own meters, per bank, scraped from its control port in Prometheus' text format (its load is
 * reported apart from the platform's). Names are Micrometer's dotted ones: {@code pagora.simulator.pulls} is scraped
 * as {@code pagora_simulator_pulls_total}, the latency timer as {@code pagora_simulator_accept_to_answered_seconds}.
 */
final class Metrics {

    /** The latency histogram's buckets: from a fast bank's answer to one that waited out a long pending timeout. */
    static final Duration[] BUCKETS = Arrays.stream(
                    new double[] {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60})
            .mapToObj(seconds -> Duration.ofNanos((long) (seconds * 1e9)))
            .toArray(Duration[]::new);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    /** Counts one event of {@code name} for {@code bank}, with further labels as name, value pairs. */
    void count(String name, String bank, String... labels) {
        Counter.builder(name)
                .tag("bank", bank)
                .tags(tags(labels))
                .register(registry)
                .increment();
    }

    /** Records one latency of {@code name} for {@code bank}. */
    void observe(String name, String bank, Duration latency) {
        Timer.builder(name)
                .tag("bank", bank)
                .serviceLevelObjectives(BUCKETS)
                .register(registry)
                .record(latency);
    }

    /** Reports {@code value} as the gauge {@code name} of {@code bank}, read at every scrape. */
    void gauge(String name, String bank, Supplier<Number> value) {
        Gauge.builder(name, value).tag("bank", bank).register(registry);
    }

    /** Every meter, in Prometheus' text format. */
    String scrape() {
        return registry.scrape();
    }

    // A label without a value (a field the switch left out) is reported as "null", never dropped.
    private static String[] tags(String... labels) {
        String[] tags = new String[labels.length - labels.length % 2];
        for (int i = 0; i < tags.length; i++) {
            tags[i] = String.valueOf(labels[i]);
        }
        return tags;
    }
}
