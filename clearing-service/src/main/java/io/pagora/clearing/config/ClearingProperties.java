package io.pagora.clearing.config;

import io.pagora.kernel.Check;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code pagora.clearing.*}: every limit of the clearing service.
 *
 * @param pendingTimeout how long a reserved chain waits for the receiving bank before the ledger
 *     releases it; whole seconds (the ledger's unit)
 * @param expiryMargin added to the pending timeout before the expiry worker voids an unanswered chain
 * @param consumers listener threads per topic (each owns some of the {@code Topics.PARTITIONS} partitions)
 * @param maxPollRecords records per poll: ≤ 2729, so one poll's pending chains (3 legs each) fit one
 *     ledger request of ≤ 8189 transfers
 * @param publishTimeout how long a batch waits for Kafka to acknowledge its outcomes before failing
 *     (and being redelivered)
 * @param sweepInterval how often due pending transfers of the PostgreSQL ledger are marked expired
 * @param retry back-off of a failed batch
 * @param receivingBank who answers for the receiving bank, said explicitly (no default): {@value #PARTICIPANTS_BANK}
 *     (the banks themselves, over their streams), {@value #SIMULATED_BANK}
 *     (the simulator, set by {@code bank}) or {@value #PROVIDED_BANK} (a {@code ReceivingBank} bean of the application
 *     that embeds clearing, e.g. a test's fault injection)
 * @param bank the simulated receiving bank
 */
@ConfigurationProperties("pagora.clearing")
public record ClearingProperties(
        @DefaultValue("30s") Duration pendingTimeout,
        @DefaultValue("1s") Duration expiryMargin,
        @DefaultValue("2") int consumers,
        @DefaultValue("2729") int maxPollRecords,
        @DefaultValue("60s") Duration publishTimeout,
        @DefaultValue("1s") Duration sweepInterval,
        @DefaultValue Retry retry,
        String receivingBank,
        @DefaultValue Bank bank) {

    public static final String SIMULATED_BANK = "simulated";
    public static final String PROVIDED_BANK = "provided";
    /** Receiving banks are participants: instructed over their streams, answering through payment-api. */
    public static final String PARTICIPANTS_BANK = "participants";

    /** 8187 transfers = 2729 interbank chains of 3 legs: the most that fits one ledger request (8189). */
    public static final int MAX_POLL_RECORDS_MAX = 2729;
    /** A pending chain holds the payer's money: never for more than a day. */
    public static final Duration PENDING_TIMEOUT_MAX = Duration.ofDays(1);

    public ClearingProperties {
        Check.that(
                pendingTimeout.toNanos() % 1_000_000_000L == 0
                        && pendingTimeout.toSeconds() >= 1
                        && pendingTimeout.compareTo(PENDING_TIMEOUT_MAX) <= 0,
                "pagora.clearing.pending-timeout is whole seconds in [1s, %s]: %s",
                PENDING_TIMEOUT_MAX,
                pendingTimeout);
        Check.that(
                !expiryMargin.isNegative() && expiryMargin.compareTo(Duration.ofMinutes(1)) <= 0,
                "pagora.clearing.expiry-margin in [0, 1m]: %s",
                expiryMargin);
        Check.that(consumers >= 1 && consumers <= 64, "pagora.clearing.consumers in [1, 64]: %d", consumers);
        Check.that(
                maxPollRecords >= 1 && maxPollRecords <= MAX_POLL_RECORDS_MAX,
                "pagora.clearing.max-poll-records in [1, %d]: %d",
                MAX_POLL_RECORDS_MAX,
                maxPollRecords);
        Check.that(
                publishTimeout.toMillis() >= 1000 && publishTimeout.compareTo(Duration.ofMinutes(5)) <= 0,
                "pagora.clearing.publish-timeout in [1s, 5m]: %s",
                publishTimeout);
        Check.that(
                SIMULATED_BANK.equals(receivingBank)
                        || PROVIDED_BANK.equals(receivingBank)
                        || PARTICIPANTS_BANK.equals(receivingBank),
                "pagora.clearing.receiving-bank is %s (banks are participants: instructions over their streams, answers"
                        + " through payment-api), %s (the in-process simulator, pagora.clearing.bank.*) or %s (a"
                        + " ReceivingBank bean of the embedding application), not %s",
                PARTICIPANTS_BANK,
                SIMULATED_BANK,
                PROVIDED_BANK,
                receivingBank);
    }

    /** True when receiving banks are participants, who answer later and read outcomes from their streams. */
    public boolean participantsAnswer() {
        return PARTICIPANTS_BANK.equals(receivingBank);
    }

    public int pendingTimeoutSeconds() {
        return Math.toIntExact(pendingTimeout.toSeconds());
    }

    /**
     * Back-off of a failed batch. Transient failures (ledger unavailable, Kafka not acknowledging) are
     * retried forever, at most {@code maxInterval} apart: the payments are good, only the
     * infrastructure is down, so dead-lettering them would be wrong. Any other failure (a bug) is
     * retried {@code attempts} times, then the batch's records go to the dead-letter topic.
     */
    public record Retry(
            @DefaultValue("200ms") Duration initialInterval,
            @DefaultValue("30s") Duration maxInterval,
            @DefaultValue("4") int attempts) {

        public Retry {
            Check.that(
                    initialInterval.toMillis() >= 1 && initialInterval.compareTo(maxInterval) <= 0,
                    "pagora.clearing.retry.initial-interval in [1ms, max-interval]: %s",
                    initialInterval);
            Check.that(
                    maxInterval.compareTo(Duration.ofMinutes(5)) <= 0,
                    "pagora.clearing.retry.max-interval at most 5m (below max.poll.interval.ms): %s",
                    maxInterval);
            Check.that(attempts >= 0 && attempts <= 100, "pagora.clearing.retry.attempts in [0, 100]: %d", attempts);
        }
    }

    /**
     * The simulated receiving bank ("Bank B").
     *
     * @param acceptRate share of payments accepted
     * @param noAnswerRate share never answered (they expire); the rest are refused
     * @param answerLatency simulated round trip per batch
     */
    public record Bank(
            @DefaultValue("0.95") double acceptRate,
            @DefaultValue("0.0") double noAnswerRate,
            @DefaultValue("2ms") Duration answerLatency) {}
}
