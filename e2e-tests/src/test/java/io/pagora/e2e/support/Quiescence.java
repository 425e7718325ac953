package io.pagora.e2e.support;

import io.pagora.events.Topics;
import io.pagora.testing.TestKafka;
import java.time.Duration;

/**
 * Waits until every consumer of the pipeline has caught up: clearing has committed every requested
 * payment, its expiry worker every parked one, and reporting every request and outcome. Read in the
 * pipeline's order, so that a zero lag upstream means the downstream records already exist.
 */
public final class Quiescence {

    private Quiescence() {}

    public static void await(Pagora pagora, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long started = System.nanoTime();
        String last = "";
        int quietReadings = 0;
        // Two quiet readings in a row: a consumer between its poll and its commit shows no lag for a moment.
        while (quietReadings < 2) {
            TestKafka kafka = pagora.kafka();
            long clearing = kafka.lag("pagora-clearing", Topics.PAYMENTS_REQUESTED);
            long expiry = kafka.lag("pagora-clearing-expiry", Topics.CLEARING_UNANSWERED);
            long reportingRequests = kafka.lag("pagora-reporting", Topics.PAYMENTS_REQUESTED);
            long reportingOutcomes = kafka.lag("pagora-reporting", Topics.PAYMENT_OUTCOMES);
            last = "clearing " + clearing + ", expiry " + expiry + ", reporting " + reportingRequests + " requests and "
                    + reportingOutcomes + " outcomes";
            quietReadings = clearing + expiry + reportingRequests + reportingOutcomes == 0 ? quietReadings + 1 : 0;
            if (System.nanoTime() > deadline) {
                throw new AssertionError("consumers still lagging after " + timeout + ": " + last);
            }
            Books.sleep(500);
        }
        Pagora.log("every consumer caught up after %d ms", (System.nanoTime() - started) / 1_000_000);
    }
}
