package io.pagora.simulator;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** The simulator's own counters and latency histograms, in Prometheus' text format (its load is reported apart). */
final class Metrics {

    private static final double[] BUCKETS_SECONDS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};

    private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();
    private final Map<String, Histogram> histograms = new ConcurrentHashMap<>();

    void count(String name, String bank, String... labels) {
        counters.computeIfAbsent(series(name, bank, labels), key -> new LongAdder()).increment();
    }

    void observe(String name, String bank, double seconds) {
        histograms.computeIfAbsent(name + "\u0000" + bank, key -> new Histogram()).observe(seconds);
    }

    long total(String name, String bank, String... labels) {
        LongAdder adder = counters.get(series(name, bank, labels));
        return adder == null ? 0 : adder.sum();
    }

    String render() {
        StringBuilder text = new StringBuilder();
        new TreeMap<>(counters).forEach((series, adder) -> text.append(series).append(' ').append(adder.sum()).append('\n'));
        new TreeMap<>(histograms).forEach((key, histogram) -> {
            String[] parts = key.split("\u0000");
            histogram.render(parts[0], parts[1], text);
        });
        return text.toString();
    }

    private static String series(String name, String bank, String... labels) {
        StringBuilder series = new StringBuilder(name).append("{bank=\"").append(bank).append('"');
        for (int i = 0; i + 1 < labels.length; i += 2) {
            series.append(',').append(labels[i]).append("=\"").append(labels[i + 1]).append('"');
        }
        return series.append('}').toString();
    }

    private static final class Histogram {
        private final LongAdder[] buckets = new LongAdder[BUCKETS_SECONDS.length];
        private final LongAdder count = new LongAdder();
        private final java.util.concurrent.atomic.DoubleAdder sum = new java.util.concurrent.atomic.DoubleAdder();

        Histogram() {
            for (int i = 0; i < buckets.length; i++) {
                buckets[i] = new LongAdder();
            }
        }

        void observe(double seconds) {
            for (int i = 0; i < BUCKETS_SECONDS.length; i++) {
                if (seconds <= BUCKETS_SECONDS[i]) {
                    buckets[i].increment();
                }
            }
            count.increment();
            sum.add(seconds);
        }

        void render(String name, String bank, StringBuilder text) {
            for (int i = 0; i < BUCKETS_SECONDS.length; i++) {
                text.append(name).append("_bucket{bank=\"").append(bank).append("\",le=\"").append(BUCKETS_SECONDS[i])
                        .append("\"} ").append(buckets[i].sum()).append('\n');
            }
            text.append(name).append("_bucket{bank=\"").append(bank).append("\",le=\"+Inf\"} ").append(count.sum()).append('\n');
            text.append(name).append("_count{bank=\"").append(bank).append("\"} ").append(count.sum()).append('\n');
            text.append(name).append("_sum{bank=\"").append(bank).append("\"} ").append(sum.sum()).append('\n');
        }
    }
}
