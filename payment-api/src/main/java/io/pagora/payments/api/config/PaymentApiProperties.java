package io.pagora.payments.api.config;

import io.pagora.events.TopicDurability;
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
 * @param topicReplicationFactor replication of the topics this service creates (1 on one local broker)
 * @param topicMinInsyncReplicas their min.insync.replicas (1 on one local broker, 2 on a cluster): see {@link TopicDurability}
 * @param groupCommitThreads committers of concurrent single payments (each commits one group at a time)
 * @param groupCommitBatchMax the most single payments committed as one group
 * @param groupCommitQueueMax single payments that may wait for a committer; beyond, 429 at once (below
 *     Tomcat's 8,192 connections, so the bound can be reached)
 * @param admission admission control: past these, new payments are refused at once with 429
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
        @DefaultValue("1") short topicReplicationFactor,
        @DefaultValue("1") short topicMinInsyncReplicas,
        @DefaultValue("2") int groupCommitThreads,
        @DefaultValue("1000") int groupCommitBatchMax,
        @DefaultValue("4096") int groupCommitQueueMax,
        @DefaultValue AdmissionSettings admission) {

    /**
     * @param clearingGroupId clearing's consumer group, whose lag on the requests topic is watched
     * @param clearingLagMax accepted payments clearing may be behind before new ones are refused
     *     (600,000 ≈ 50 s at 12,000/s)
     * @param lagRefreshInterval how often the lag is measured
     * @param batchesInFlightMax batch requests worked on at once (below the database pool)
     */
    public record AdmissionSettings(
            @DefaultValue("pagora-clearing") String clearingGroupId,
            @DefaultValue("600000") long clearingLagMax,
            @DefaultValue("1s") Duration lagRefreshInterval,
            @DefaultValue("8") int batchesInFlightMax) {}

    /** Bodies are read into memory: keep them well below the heap. */
    static final long BODY_BYTES_CEILING = 64L * 1024 * 1024;

    public PaymentApiProperties {
        Check.that(amountMaxCentavos > 0, "pagora.payments.amount-max-centavos must be positive");
        Check.that(bodyMax.toBytes() > 0 && bodyMax.toBytes() <= BODY_BYTES_CEILING, "pagora.payments.body-max out of range");
        Check.that(batchBodyMax.toBytes() > 0 && batchBodyMax.toBytes() <= BODY_BYTES_CEILING,
                "pagora.payments.batch-body-max out of range");
        // A batch's account lookup must fit one ledger request: two accounts per payment.
        Check.that(batchItemsMax >= 1 && batchItemsMax <= 4094, "pagora.payments.batch-items-max in 1..4094");
        Check.that(kafkaAckTimeout.toMillis() > 0, "pagora.payments.kafka-ack-timeout must be positive");
        Check.that(accountCacheSize > 0, "pagora.payments.account-cache-size must be positive");
        Check.that(fundingMaxCentavos > 0, "pagora.payments.funding-max-centavos must be positive");
        Check.that(topicReplicationFactor >= 1, "pagora.payments.topic-replication-factor must be positive");
        Check.that(groupCommitThreads >= 1 && groupCommitThreads <= 64, "pagora.payments.group-commit-threads in 1..64");
        // A group's account lookup must fit one ledger request, like a batch's.
        Check.that(groupCommitBatchMax >= 1 && groupCommitBatchMax <= 4094,
                "pagora.payments.group-commit-batch-max in 1..4094");
        Check.that(groupCommitQueueMax >= groupCommitBatchMax && groupCommitQueueMax <= 1_000_000,
                "pagora.payments.group-commit-queue-max in group-commit-batch-max..1000000");
    }

    public int bodyMaxBytes() {
        return (int) bodyMax.toBytes();
    }

    public int batchBodyMaxBytes() {
        return (int) batchBodyMax.toBytes();
    }

    public TopicDurability topicDurability() {
        return new TopicDurability(topicReplicationFactor, topicMinInsyncReplicas);
    }
}
