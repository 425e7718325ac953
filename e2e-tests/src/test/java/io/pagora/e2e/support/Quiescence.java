package io.pagora.e2e.support;

import io.pagora.events.ConsumerGroups;
import io.pagora.events.Topics;
import io.pagora.testing.TestKafka;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Waits until every consumer of the pipeline has caught up: clearing has committed every requested
 * payment, its expiry worker every parked one, and reporting every request and outcome. Read in the
 * pipeline's order, so that a zero lag upstream means the downstream records already exist.
 */
public final class Quiescence {

    private Quiescence() {}

    public static void await(Pagora pagora, Duration timeout) {
        long started = System.nanoTime();
        AtomicReference<String> last = new AtomicReference<>("");
        AtomicInteger quietReadings = new AtomicInteger();
        try {
            // Two quiet readings in a row: a consumer between its poll and its commit shows no lag for a moment.
            Poll.upTo(timeout, Duration.ofMillis(500)).until(() -> {
                TestKafka kafka = pagora.kafka();
                long clearing = kafka.lag(ConsumerGroups.CLEARING, Topics.PAYMENTS_REQUESTED);
                long expiry = kafka.lag(ConsumerGroups.CLEARING_EXPIRY, Topics.CLEARING_UNANSWERED);
                long reportingRequests = kafka.lag("pagora-reporting", Topics.PAYMENTS_REQUESTED);
                long reportingOutcomes = kafka.lag("pagora-reporting", Topics.PAYMENT_OUTCOMES);
                last.set("clearing " + clearing + ", expiry " + expiry + ", reporting " + reportingRequests
                        + " requests and " + reportingOutcomes + " outcomes");
                if (clearing + expiry + reportingRequests + reportingOutcomes == 0) {
                    return quietReadings.incrementAndGet() == 2;
                }
                quietReadings.set(0);
                return false;
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("consumers still lagging after " + timeout + ": " + last.get(), e);
        }
        Pagora.log("every consumer caught up after %d ms", (System.nanoTime() - started) / 1_000_000);
    }
}
