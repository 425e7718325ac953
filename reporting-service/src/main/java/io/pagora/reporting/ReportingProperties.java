package io.pagora.reporting;

import io.pagora.events.ConsumerGroups;
import io.pagora.events.Topics;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The service's own settings ({@code pagora.reporting.*}); Kafka clients, the database and the web server
 * use Spring Boot's standard properties (see application.yml).
 *
 * @param projection the Kafka projection
 * @param topics the topics this service creates if missing
 */
@ConfigurationProperties("pagora.reporting")
public record ReportingProperties(
        @DefaultValue Projection projection, @DefaultValue TopicSettings topics) {

    /** The projection's consumer group unless {@code pagora.reporting.projection.group-id} says otherwise. */
    public static final String PROJECTION_GROUP = ConsumerGroups.REPORTING;

    /**
     * @param groupId the consumer group: one read model per group
     * @param autoStartup false to start the listener by hand (tests)
     * @param concurrency consumers (threads) in the group member; at most the partition count is useful
     * @param failedPollAttempts tries of a poll that fails for a non-transient reason before its records
     *     go to the dead-letter topics (a bug: inputs are validated before the transaction)
     * @param transientRetryMaxInterval the longest pause between retries of a poll that failed because the
     *     database or Kafka is unreachable. Such polls are retried without an attempt limit: dead-lettering
     *     valid events would silently leave them out of the read model; consumer lag shows the stall.
     * @param transactionTimeout the database transaction of one poll
     * @param window how long the broker gathers events for one poll, which is one transaction: a payment whose
     *     request and outcome fall in one window is written once, already final (else inserted, then finalized). At
     *     most 5 s; the read model's freshness pays it (docs/performance.md)
     * @param windowRecordsMax the records one poll may hold (its memory and transaction bound): past it a window is
     *     split. The default holds a 1 s window at 30,000 payments/s (two records each) on one consumer. Also the
     *     most requests one consumer holds back
     * @param requestHold how long a payment request may be held back, waiting for its outcome, so that its row is
     *     written once, already final (else inserted ACCEPTED, then finalized); 0 holds nothing. At most 10 s: a
     *     payment just accepted is missing from the read model up to this long, plus a window
     */
    /** The shortest window: below it a poll holds a payment's request or its outcome, rarely both. */
    public static final Duration WINDOW_MIN = Duration.ofMillis(10);
    /** The longest window: it is read-model lag, and the consumer's requests time out at 30 s. */
    public static final Duration WINDOW_MAX = Duration.ofSeconds(5);
    /** The most records a poll may hold: at ~2 KB of heap each at its transaction's peak, ~250 MB of a consumer. */
    public static final int WINDOW_RECORDS_MAX = 120_000;
    /** The longest a request may be held back: it is how long a payment just accepted may be missing. */
    public static final Duration REQUEST_HOLD_MAX = Duration.ofSeconds(10);

    public record Projection(
            @DefaultValue(PROJECTION_GROUP) String groupId,
            @DefaultValue("true") boolean autoStartup,
            @DefaultValue("2") int concurrency,
            @DefaultValue("3") int failedPollAttempts,
            @DefaultValue("10s") Duration transientRetryMaxInterval,
            @DefaultValue("30s") Duration transactionTimeout,
            @DefaultValue("1s") Duration window,
            @DefaultValue("60000") int windowRecordsMax,
            @DefaultValue("3s") Duration requestHold) {

        public Projection {
            if (concurrency < 1 || concurrency > Topics.PARTITIONS * 2) {
                throw new IllegalArgumentException("pagora.reporting.projection.concurrency must be 1.."
                        + Topics.PARTITIONS * 2 + ": " + concurrency);
            }
            if (failedPollAttempts < 1 || failedPollAttempts > 100) {
                throw new IllegalArgumentException(
                        "pagora.reporting.projection.failed-poll-attempts must be 1..100: " + failedPollAttempts);
            }
            if (window.compareTo(WINDOW_MIN) < 0 || window.compareTo(WINDOW_MAX) > 0) {
                throw new IllegalArgumentException("pagora.reporting.projection.window must be " + WINDOW_MIN.toMillis()
                        + " ms.." + WINDOW_MAX.toSeconds() + " s: " + window);
            }
            if (requestHold.isNegative() || requestHold.compareTo(REQUEST_HOLD_MAX) > 0) {
                throw new IllegalArgumentException("pagora.reporting.projection.request-hold must be 0.."
                        + REQUEST_HOLD_MAX.toSeconds() + " s: " + requestHold);
            }
            if (windowRecordsMax < 1 || windowRecordsMax > WINDOW_RECORDS_MAX) {
                throw new IllegalArgumentException("pagora.reporting.projection.window-records-max must be 1.."
                        + WINDOW_RECORDS_MAX + ": " + windowRecordsMax);
            }
        }
    }

    /**
     * @param create whether to create the payment topics and their dead-letter topics if missing
     * @param partitions partitions of each topic created (their durability is every service's pagora.topics.*)
     */
    public record TopicSettings(
            @DefaultValue("true") boolean create,
            @DefaultValue("" + Topics.PARTITIONS) int partitions) {}
}
