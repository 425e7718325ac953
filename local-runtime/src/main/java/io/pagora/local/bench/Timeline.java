package io.pagora.local.bench;

import io.pagora.kernel.Check;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A bench step second by second, warm-up included, for report.html: what the platform accepted and made final each
 * second, the backlog, every component's CPU (cores), and the latency percentiles of the calls scheduled in that
 * second. It measures nothing by itself: {@link Bench} samples into it once a second and the load generator hands
 * it each call's latency. Bounded by {@code secondsMax}; a call scheduled outside it is not kept.
 */
public final class Timeline {

    /** A call's latency at most this many per second are kept for its percentiles (a single-mode flood is more). */
    static final int LATENCIES_PER_SECOND_MAX = 200_000;

    private final long originNanos;
    private final int secondsMax;
    private final long[][] latencyNanos;
    private final int[] latencyCounts;
    private final List<Sample> samples = new ArrayList<>();

    /** What was read at the end of one second: running totals, so each second's figure is a difference. */
    record Sample(int second, long accepted, long finalCount, long backlog, Map<String, Double> cpuSeconds) {}

    Timeline(long originNanos, int secondsMax) {
        Check.that(secondsMax >= 1 && secondsMax <= 86_400, "a timeline of 1 s to a day: %d", secondsMax);
        this.originNanos = originNanos;
        this.secondsMax = secondsMax;
        this.latencyNanos = new long[secondsMax][];
        this.latencyCounts = new int[secondsMax];
    }

    /** A call scheduled at {@code scheduledNanos} was answered after {@code nanos}. Thread-safe. */
    public synchronized void latency(long scheduledNanos, long nanos) {
        long second = (scheduledNanos - originNanos) / 1_000_000_000L;
        if (second < 0 || second >= secondsMax || latencyCounts[(int) second] >= LATENCIES_PER_SECOND_MAX) {
            return;
        }
        int s = (int) second;
        long[] bucket = latencyNanos[s];
        if (bucket == null) {
            bucket = latencyNanos[s] = new long[64];
        } else if (latencyCounts[s] == bucket.length) {
            bucket = latencyNanos[s] = Arrays.copyOf(bucket, bucket.length * 2);
        }
        bucket[latencyCounts[s]++] = nanos;
    }

    /** The totals read at the end of {@code second} (seconds since the origin, in order; 0 is the origin itself). */
    synchronized void sample(int second, long accepted, long finalCount, long backlog, Map<String, Double> cpuSeconds) {
        Check.that(samples.isEmpty() || second > samples.getLast().second(), "samples in order of their second");
        Check.that(samples.size() < secondsMax + 1, "at most %d samples", secondsMax + 1);
        samples.add(new Sample(second, accepted, finalCount, backlog, Map.copyOf(cpuSeconds)));
    }

    /**
     * The series as result.json keeps them: {@code t_s} is the end of each second since the step began, and each
     * figure is that second's (a rate, or the backlog then); the window is {@code [window_from_s, window_to_s]}.
     */
    synchronized Map<String, Object> json(int windowFromSecond, int windowToSecond, double offeredPerS) {
        List<Integer> t = new ArrayList<>();
        List<Double> accepted = new ArrayList<>();
        List<Double> finals = new ArrayList<>();
        List<Long> backlog = new ArrayList<>();
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        Map<String, List<Double>> cores = new LinkedHashMap<>();
        for (int i = 1; i < samples.size(); i++) {
            Sample before = samples.get(i - 1);
            Sample now = samples.get(i);
            double seconds = now.second() - before.second();
            t.add(now.second());
            accepted.add(round((now.accepted() - before.accepted()) / seconds));
            finals.add(round((now.finalCount() - before.finalCount()) / seconds));
            backlog.add(now.backlog());
            double[] percentiles = percentilesMs(now.second() - 1);
            p50.add(percentiles[0]);
            p99.add(percentiles[1]);
            for (Map.Entry<String, Double> entry : now.cpuSeconds().entrySet()) {
                double used = entry.getValue() - before.cpuSeconds().getOrDefault(entry.getKey(), entry.getValue());
                cores.computeIfAbsent(entry.getKey(), key -> new ArrayList<>()).add(round3(used / seconds));
            }
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("t_s", t);
        json.put("window_from_s", windowFromSecond);
        json.put("window_to_s", windowToSecond);
        json.put("offered_per_s", round(offeredPerS));
        json.put("accepted_per_s", accepted);
        json.put("final_per_s", finals);
        json.put("backlog", backlog);
        json.put("accept_p50_ms", p50);
        json.put("accept_p99_ms", p99);
        json.put("cpu_cores", cores);
        return json;
    }

    /** p50 and p99 (ms) of the calls scheduled in that second; NaN-free: -1 when none was answered. */
    private double[] percentilesMs(int second) {
        if (second < 0 || second >= secondsMax || latencyCounts[second] == 0) {
            return new double[] {-1, -1};
        }
        double[] ms = new double[latencyCounts[second]];
        for (int i = 0; i < ms.length; i++) {
            ms[i] = latencyNanos[second][i] / 1e6;
        }
        Arrays.sort(ms);
        return new double[] {round(Bench.percentile(ms, 50)), round(Bench.percentile(ms, 99))};
    }

    private static double round(double value) {
        return Double.isFinite(value) ? Math.round(value * 10) / 10.0 : -1;
    }

    private static double round3(double value) {
        return Double.isFinite(value) ? Math.round(value * 1000) / 1000.0 : -1;
    }
}
