package io.pagora.payments.api.config;

import io.pagora.events.ConsumerGroups;
import io.pagora.kernel.Check;
import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * payment-api's limits and settings ({@code pagora.payments.*}); every one is bounded.
 *
 * @param amountMaxCentavos the largest payment accepted (default R$ 100,000,000.00)
 * @param statusBaseUrl where a payment's status is read (the reporting-service): the 202's Location
 * @param bodyMax the largest body of a single request (POST /payments and the admin endpoints)
 * @param batchBodyMax the largest body of POST /payments/batch
 * @param batchItemsMax the most payments in one batch
 * @param kafkaAckTimeout how long a request waits for the broker's acknowledgements
 * @param accountCacheSize how many existing customer account ids are remembered (LRU)
 * @param fundingMaxCentavos the largest single reserve or customer funding
 * @param groupCommitThreads committers of concurrent single payments (each commits one group at a time)
 * @param groupCommitBatchMax the most single payments committed as one group
 * @param groupCommitQueueMax single payments that may wait for a committer; beyond, 429 at once. With the groups
 *     being committed ({@code group-commit-threads × group-commit-batch-max}) it must stay below Tomcat's
 *     {@code server.tomcat.max-connections}, or the bound is never reached: overload would become long waits, 503
 *     outcome-unknown and clients left in the accept backlog ({@link #checkIntakeBelow}, at startup)
 * @param admission admission control: past these, new payments are refused at once with 429
 * @param participantLimits per-participant limits: past these, that participant's payments are refused at once
 *     with 429, the others' are not
 */
@ConfigurationProperties("pagora.payments")
public record PaymentApiProperties(
        @DefaultValue("10000000000") long amountMaxCentavos,
        @DefaultValue("http://127.0.0.1:8082") URI statusBaseUrl,
        @DefaultValue("16KB") DataSize bodyMax,
        @DefaultValue("2MB") DataSize batchBodyMax,
        @DefaultValue("1000") int batchItemsMax,
        @DefaultValue("10s") Duration kafkaAckTimeout,
        @DefaultValue("100000") int accountCacheSize,
        @DefaultValue("100000000000000") long fundingMaxCentavos,
        @DefaultValue("2") int groupCommitThreads,
        @DefaultValue("256") int groupCommitBatchMax,
        @DefaultValue("256") int groupCommitQueueMax,
        @DefaultValue AdmissionSettings admission,
        @DefaultValue ParticipantLimitSettings participantLimits) {

    /**
     * @param clearingGroupId clearing's consumer group, whose lag on the requests topic is watched
     * @param clearingLagMax accepted payments clearing may be behind before new ones are refused
     *     (600,000 ≈ 50 s at 12,000/s)
     * @param lagRefreshInterval how often the lag is measured
     * @param batchesInFlightMax batch requests worked on at once (below the database pool)
     */
    public record AdmissionSettings(
            @DefaultValue(ConsumerGroups.CLEARING) String clearingGroupId,
            @DefaultValue("600000") long clearingLagMax,
            @DefaultValue("1s") Duration lagRefreshInterval,
            @DefaultValue("8") int batchesInFlightMax) {}

    /**
     * Per participant (a bank, or the operator), on {@code POST /payments} and {@code POST /payments/batch}. The
     * defaults are PIX's published ICOM figures (a bucket of 3,750 payments, 750 a second refilled); the local
     * launcher sets its own (infra/local/pagora: PARTICIPANT_BURST, PARTICIPANT_REFILL_PER_SECOND), since its bench
     * sends several thousand payments a second per bank.
     *
     * @param inFlightMax payment requests of one participant worked on at once (below max-connections, so one bank
     *     cannot take every connection)
     * @param burst payments a participant may send at once (its bucket; at least batch-items-max)
     * @param refillPerSecond payments a participant may send per second, sustained (one token per payment, a batch
     *     takes one per item)
     * @param participantsMax participants tracked at most (the switch's banks: a bounded set)
     */
    public record ParticipantLimitSettings(
            @DefaultValue("256") int inFlightMax,
            @DefaultValue("3750") long burst,
            @DefaultValue("750") long refillPerSecond,
            @DefaultValue("4096") int participantsMax) {}

    /** Bodies are read into memory: keep them well below the heap. */
    static final long BODY_BYTES_CEILING = 64L * 1024 * 1024;

    public PaymentApiProperties {
        Check.that(amountMaxCentavos > 0, "pagora.payments.amount-max-centavos must be positive");
        Check.that(
                bodyMax.toBytes() > 0 && bodyMax.toBytes() <= BODY_BYTES_CEILING,
                "pagora.payments.body-max out of range");
        Check.that(
                batchBodyMax.toBytes() > 0 && batchBodyMax.toBytes() <= BODY_BYTES_CEILING,
                "pagora.payments.batch-body-max out of range");
        // A batch's account lookup must fit one ledger request: two accounts per payment.
        Check.that(batchItemsMax >= 1 && batchItemsMax <= 4094, "pagora.payments.batch-items-max in 1..4094");
        Check.that(kafkaAckTimeout.toMillis() > 0, "pagora.payments.kafka-ack-timeout must be positive");
        Check.that(accountCacheSize > 0, "pagora.payments.account-cache-size must be positive");
        Check.that(fundingMaxCentavos > 0, "pagora.payments.funding-max-centavos must be positive");
        Check.that(
                groupCommitThreads >= 1 && groupCommitThreads <= 64, "pagora.payments.group-commit-threads in 1..64");
        // A group's account lookup must fit one ledger request, like a batch's.
        Check.that(
                groupCommitBatchMax >= 1 && groupCommitBatchMax <= 4094,
                "pagora.payments.group-commit-batch-max in 1..4094");
        Check.that(
                groupCommitQueueMax >= groupCommitBatchMax && groupCommitQueueMax <= 1_000_000,
                "pagora.payments.group-commit-queue-max in group-commit-batch-max..1000000");
        // A batch takes a token per item: a bucket smaller than a batch would refuse the largest batches forever.
        Check.that(
                participantLimits.burst() >= batchItemsMax,
                "pagora.payments.participant-limits.burst (%d) must be at least batch-items-max (%d)",
                participantLimits.burst(),
                batchItemsMax);
    }

    /**
     * The single-payment intake must fill (and answer 429) before the connections do: the payments it can hold at
     * once (queued, and in the groups being committed) and one participant's requests in flight are each below
     * {@code server.tomcat.max-connections}. Checked at startup, so a change to either side cannot silently break it.
     */
    public void checkIntakeBelow(int maxConnections) {
        long intakeMax = groupCommitQueueMax + (long) groupCommitThreads * groupCommitBatchMax;
        Check.that(
                intakeMax < maxConnections,
                "pagora.payments.group-commit-queue-max + group-commit-threads ×"
                        + " group-commit-batch-max (%d) must be below server.tomcat.max-connections (%d): else the queue's 429"
                        + " never fires and overload waits in the accept backlog",
                intakeMax,
                maxConnections);
        Check.that(
                participantLimits.inFlightMax() < maxConnections,
                "pagora.payments.participant-limits.in-flight-max"
                        + " (%d) must be below server.tomcat.max-connections (%d): else one participant can take every connection",
                participantLimits.inFlightMax(),
                maxConnections);
    }

    public int bodyMaxBytes() {
        return (int) bodyMax.toBytes();
    }

    public int batchBodyMaxBytes() {
        return (int) batchBodyMax.toBytes();
    }
}
