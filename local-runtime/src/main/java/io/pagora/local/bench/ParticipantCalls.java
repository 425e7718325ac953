package io.pagora.local.bench;

import io.pagora.kernel.Check;
import io.pagora.settlement.domain.BankId;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One bank's single payments as payment-api itself counted them, from its {@code /actuator/prometheus}: the calls it
 * read, by the answer it wrote ({@code pagora_payments_participant_calls_total}), and the time from each call read to
 * its answer written, as a cumulative histogram ({@code pagora_payments_participant_answer_seconds}). The server's
 * time excludes any client's own queueing (a load generator sharing the machine with a flood) and the wait before the
 * server reads the request; a call the client never sent is not here at all.
 *
 * @param callsByAnswer calls read, by the server's {@code answer} tag ({@code 202}, {@code 429-retry-after}, ...)
 * @param upperBoundsSeconds the histogram's bucket bounds, ascending, the last {@code +Inf}
 * @param cumulativeCounts calls answered within each bound
 * @param sumSeconds the answer times' sum (with the last bucket's count, an exact mean)
 */
public record ParticipantCalls(
        Map<String, Long> callsByAnswer, double[] upperBoundsSeconds, long[] cumulativeCounts, double sumSeconds) {

    static final String CALLS = "pagora_payments_participant_calls_total";
    static final String ANSWER_TIME = "pagora_payments_participant_answer_seconds";
    /** The answers that count as answered at once: accepted, refused with when to retry, or outcome unknown. */
    static final Set<String> ANSWERED = Set.of("202", "429-retry-after", "503-outcome-unknown");

    static final String ENDPOINT = "single";

    private static final Pattern SAMPLE = Pattern.compile("^([a-z_]+)\\{([^}]*)} (\\S+)$", Pattern.MULTILINE);
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_]+)=\"([^\"]*)\"");
    private static final int BUCKETS_MAX = 1_000;

    public ParticipantCalls {
        Check.that(upperBoundsSeconds.length == cumulativeCounts.length, "one count per bucket");
        callsByAnswer = Collections.unmodifiableMap(new TreeMap<>(callsByAnswer));
    }

    static final ParticipantCalls NONE = new ParticipantCalls(Map.of(), new double[0], new long[0], 0);

    /** {@code bank}'s single-payment calls in this exposition (none when payment-api has no series for it). */
    static ParticipantCalls of(String metrics, BankId bank) {
        String participant = bank.toString();
        Map<String, Long> calls = new LinkedHashMap<>();
        TreeMap<Double, Long> buckets = new TreeMap<>();
        double sum = 0;
        Matcher sample = SAMPLE.matcher(metrics);
        while (sample.find()) {
            String name = sample.group(1);
            if (!name.equals(CALLS) && !name.startsWith(ANSWER_TIME)) {
                continue;
            }
            Map<String, String> labels = labels(sample.group(2));
            if (!participant.equals(labels.get("participant")) || !ENDPOINT.equals(labels.get("endpoint"))) {
                continue;
            }
            double value = Double.parseDouble(sample.group(3));
            switch (name) {
                case CALLS -> calls.merge(labels.get("answer"), Math.round(value), Long::sum);
                case ANSWER_TIME + "_bucket" -> buckets.put(bound(labels.get("le")), Math.round(value));
                case ANSWER_TIME + "_sum" -> sum = value;
                default -> {}
            }
            Check.that(buckets.size() <= BUCKETS_MAX, "at most %d buckets", BUCKETS_MAX);
        }
        double[] bounds = new double[buckets.size()];
        long[] counts = new long[buckets.size()];
        int i = 0;
        for (Map.Entry<Double, Long> bucket : buckets.entrySet()) {
            bounds[i] = bucket.getKey();
            counts[i++] = bucket.getValue();
        }
        return new ParticipantCalls(calls, bounds, counts, sum);
    }

    /** What happened between {@code before} and this (a counter only grows while payment-api runs). */
    ParticipantCalls minus(ParticipantCalls before) {
        Map<String, Long> calls = new LinkedHashMap<>();
        callsByAnswer.forEach(
                (answer, count) -> calls.put(answer, count - before.callsByAnswer.getOrDefault(answer, 0L)));
        calls.values().removeIf(count -> count == 0);
        long[] counts = cumulativeCounts.clone();
        if (before.upperBoundsSeconds.length > 0) {
            Check.that(
                    Arrays.equals(before.upperBoundsSeconds, upperBoundsSeconds), "the same buckets before and after");
            for (int i = 0; i < counts.length; i++) {
                counts[i] -= before.cumulativeCounts[i];
            }
        }
        return new ParticipantCalls(calls, upperBoundsSeconds, counts, sumSeconds - before.sumSeconds);
    }

    long calls() {
        return callsByAnswer.values().stream().mapToLong(Long::longValue).sum();
    }

    long calls(String answer) {
        return callsByAnswer.getOrDefault(answer, 0L);
    }

    /** Calls whose answer is none of {@link #ANSWERED}, by answer. */
    Map<String, Long> notAnswered() {
        Map<String, Long> wrong = new LinkedHashMap<>(callsByAnswer);
        wrong.keySet().removeAll(ANSWERED);
        return wrong;
    }

    /** Calls timed (the histogram's last bucket). */
    long timed() {
        return cumulativeCounts.length == 0 ? 0 : cumulativeCounts[cumulativeCounts.length - 1];
    }

    /** The exact mean answer time, ms (NaN without calls). */
    double meanMs() {
        return timed() == 0 ? Double.NaN : sumSeconds / timed() * 1_000;
    }

    /**
     * The {@code percent} percentile of the answer times, ms, as Prometheus' {@code histogram_quantile} estimates it:
     * the bucket the rank falls in, linearly within it (so it is exact to a bucket's width, ~1/3 of its bound around
     * a few ms); in the {@code +Inf} bucket, the highest finite bound. NaN without calls.
     */
    double percentileMs(double percent) {
        Check.that(percent > 0 && percent < 100, "a percentile in (0, 100): %s", percent);
        long total = timed();
        if (total == 0) {
            return Double.NaN;
        }
        double rank = percent / 100 * total;
        for (int i = 0; i < cumulativeCounts.length; i++) {
            if (cumulativeCounts[i] >= rank) {
                if (Double.isInfinite(upperBoundsSeconds[i])) {
                    return i == 0 ? Double.POSITIVE_INFINITY : upperBoundsSeconds[i - 1] * 1_000;
                }
                double lower = i == 0 ? 0 : upperBoundsSeconds[i - 1];
                long below = i == 0 ? 0 : cumulativeCounts[i - 1];
                long in = cumulativeCounts[i] - below;
                double within = in == 0 ? 1 : (rank - below) / in;
                return (lower + (upperBoundsSeconds[i] - lower) * within) * 1_000;
            }
        }
        throw new IllegalStateException("the last bucket holds every call");
    }

    private static Map<String, String> labels(String text) {
        Map<String, String> labels = new LinkedHashMap<>();
        Matcher label = LABEL.matcher(text);
        while (label.find()) {
            labels.put(label.group(1), label.group(2));
        }
        return labels;
    }

    private static double bound(String le) {
        Check.that(le != null, "a bucket has its bound");
        return "+Inf".equals(le) ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
    }
}
