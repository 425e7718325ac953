package io.pagora.e2e.support;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;

/**
 * How the end-to-end tests wait for a condition, through Awaitility: looked at once at the start, then every
 * {@code interval} until {@code atMost}, on the test's own thread (the HTTP and stream clients a condition reads
 * are the test's, not meant to be shared with a polling thread).
 */
public final class Poll {

    private Poll() {}

    public static ConditionFactory upTo(Duration atMost, Duration interval) {
        return Awaitility.await()
                .atMost(atMost)
                .pollDelay(Duration.ZERO)
                .pollInterval(interval)
                .pollInSameThread();
    }
}
