package io.pagora.local.readside;

import io.pagora.events.ConsumerGroups;
import io.pagora.events.Topics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * How many payment requests and outcomes the read model has still to project: the records published to the two
 * topics reporting-service's projection reads, past the offsets its consumer group committed (it commits a poll once
 * the poll's transaction is in). Zero: the read model holds everything published so far. No producer of these topics
 * is transactional, so an end offset is a record's, never a marker's.
 */
public final class ProjectionLag {

    /** reporting-service's projection group: {@code ReportingProperties.PROJECTION_GROUP}, as BenchDrainTest checks. */
    public static final String REPORTING_GROUP = ConsumerGroups.REPORTING;

    public static final List<String> PROJECTED_TOPICS = List.of(Topics.PAYMENTS_REQUESTED, Topics.PAYMENT_OUTCOMES);
    private static final int DEADLINE_SECONDS = 30;

    private ProjectionLag() {}

    public static long unprojected(String bootstrapServers) throws Exception {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                DEADLINE_SECONDS * 1_000))) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (TopicDescription topic : admin.describeTopics(PROJECTED_TOPICS)
                    .allTopicNames()
                    .get(DEADLINE_SECONDS, TimeUnit.SECONDS)
                    .values()) {
                topic.partitions()
                        .forEach(p -> latest.put(new TopicPartition(topic.name(), p.partition()), OffsetSpec.latest()));
            }
            Map<TopicPartition, ListOffsetsResultInfo> ends =
                    admin.listOffsets(latest).all().get(DEADLINE_SECONDS, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(REPORTING_GROUP)
                    .partitionsToOffsetAndMetadata()
                    .get(DEADLINE_SECONDS, TimeUnit.SECONDS);
            return behind(ends, committed);
        }
    }

    /** Records past the committed offset, summed over the partitions (a partition never committed: all of it). */
    public static long behind(
            Map<TopicPartition, ListOffsetsResultInfo> ends, Map<TopicPartition, OffsetAndMetadata> committed) {
        long behind = 0;
        for (Map.Entry<TopicPartition, ListOffsetsResultInfo> end : ends.entrySet()) {
            OffsetAndMetadata done = committed.get(end.getKey());
            behind += Math.max(0, end.getValue().offset() - (done == null ? 0 : done.offset()));
        }
        return behind;
    }
}
