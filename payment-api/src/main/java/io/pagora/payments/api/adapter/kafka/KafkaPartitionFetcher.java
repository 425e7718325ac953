package io.pagora.payments.api.adapter.kafka;

import io.pagora.events.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/** A {@link PartitionFetcher} over a consumer of its own, assigned to one partition of the messages topic. */
final class KafkaPartitionFetcher implements PartitionFetcher {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);

    private final KafkaConsumer<String, byte[]> consumer;
    private final TopicPartition partition;
    private final Duration readTimeout;

    KafkaPartitionFetcher(Map<String, Object> kafkaProperties, int partition, Duration readTimeout) {
        this.partition = new TopicPartition(Topics.PARTICIPANT_MESSAGES, partition);
        this.readTimeout = readTimeout;
        Map<String, Object> config = new HashMap<>(KafkaMessageLog.consumerConfig(kafkaProperties, readTimeout));
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "payment-api-messages-" + partition);
        this.consumer = new KafkaConsumer<>(config);
        consumer.assign(List.of(this.partition));
    }

    @Override
    public void seek(long position) {
        consumer.seek(partition, position);
    }

    @Override
    public Fetch fetch() {
        List<ConsumerRecord<String, byte[]>> polled =
                consumer.poll(KafkaMessageLog.POLL).records(partition);
        List<Record> records = new ArrayList<>(polled.size());
        for (ConsumerRecord<String, byte[]> record : polled) {
            records.add(new Record(
                    record.offset(),
                    record.key(),
                    record.value(),
                    KafkaMessageLog.countOf(record),
                    Math.max(0, record.timestamp())));
        }
        return new Fetch(records, consumer.position(partition, readTimeout));
    }

    @Override
    public void close() {
        consumer.close(CLOSE_TIMEOUT);
    }
}
