package io.pagora.simulator;

import java.util.concurrent.ThreadLocalRandom;

/**
 * How a simulated bank answers: shares of accept, refuse and no answer, and an answer latency of {@code latencyMs}
 * plus an exponential jitter of mean {@code jitterMs}. {@link Mode#DOWN}: the bank reads and answers nothing;
 * {@link Mode#SLOW}: every answer waits {@code slowMs} more.
 */
record Behaviour(double acceptShare, double refuseShare, long latencyMs, long jitterMs, Mode mode, long slowMs) {

    enum Mode {
        UP,
        SLOW,
        DOWN
    }

    enum Decision {
        ACCEPT,
        REFUSE,
        NONE
    }

    Behaviour {
        if (acceptShare < 0 || refuseShare < 0 || acceptShare + refuseShare > 1.0 + 1e-9) {
            throw new IllegalArgumentException(
                    "accept and refuse shares in [0, 1], at most 1 together: " + acceptShare + ", " + refuseShare);
        }
        if (latencyMs < 0
                || jitterMs < 0
                || slowMs < 0
                || latencyMs > 600_000
                || jitterMs > 600_000
                || slowMs > 600_000) {
            throw new IllegalArgumentException("latencies in [0, 600000] ms");
        }
    }

    Decision decide() {
        return decide(ThreadLocalRandom.current().nextDouble());
    }

    /** The decision for a uniform draw in [0, 1): below the accept share accept, then refuse, the rest none. */
    Decision decide(double draw) {
        return draw < acceptShare
                ? Decision.ACCEPT
                : draw < acceptShare + refuseShare ? Decision.REFUSE : Decision.NONE;
    }

    long delayMs() {
        long jitter = jitterMs == 0
                ? 0
                : (long) (-jitterMs * Math.log(1 - ThreadLocalRandom.current().nextDouble()));
        return latencyMs + Math.min(jitter, 10 * jitterMs) + (mode == Mode.SLOW ? slowMs : 0);
    }

    Behaviour withMode(Mode newMode, long newSlowMs) {
        return new Behaviour(acceptShare, refuseShare, latencyMs, jitterMs, newMode, newSlowMs);
    }
}
