package io.pagora.local.load;

import io.pagora.kernel.Check;
import java.util.Arrays;

/** Latencies of the measured calls; a plain growing array (a five-minute window at 3,000/s is 7 MB). */
final class LatencyLog {
    private static final int CALLS_MAX = 50_000_000;
    private long[] nanos = new long[1 << 16];
    private int count;

    synchronized void add(long latencyNanos) {
        Check.that(count < CALLS_MAX, "at most %d measured calls", CALLS_MAX);
        if (count == nanos.length) {
            nanos = Arrays.copyOf(nanos, nanos.length * 2);
        }
        nanos[count++] = latencyNanos;
    }

    synchronized double[] takeSortedMs() {
        double[] ms = new double[count];
        for (int i = 0; i < count; i++) {
            ms[i] = nanos[i] / 1e6;
        }
        count = 0;
        Arrays.sort(ms);
        return ms;
    }
}
