package io.pagora.reporting.reconciliation.adapter;

import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentSettled;
import io.pagora.events.Topics;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.reporting.reconciliation.application.PaymentPipeline;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * {@link PaymentPipeline} read from Kafka: end offsets and consumer groups' committed offsets through the admin
 * client, and the outcomes of a window through a consumer of its own (assigned, no group, nothing committed).
 * A topic that does not exist (clearing's expiry topic where clearing never ran) holds no record. Every call waits
 * at most {@code timeout}; a failure throws, and the balance check that asked is retried later. One thread.
 */
public final class KafkaPaymentPipeline implements PaymentPipeline, AutoCloseable {

    /** The clients' id prefix: apart from the projection's own clients in Kafka's metrics and logs. */
    private static final String CLIENT_ID = "reporting-reconciliation";
    /** Records fetched per poll of the window reader. */
    private static final int RECORDS_PER_POLL = 2_000;

    private final Admin admin;
    private final KafkaConsumer<byte[], byte[]> reader;
    private final List<ClearingStage> clearingStages;
    private final String projectionGroup;
    private final Duration timeout;

    /**
     * @param clientProperties the Kafka client settings (bootstrap servers, security) of the service
     * @param clearingStages clearing's input topics in the order a record is handed on, each with its consumer group
     * @param projectionGroup the projection's consumer group
     */
    public KafkaPaymentPipeline(
            Map<String, Object> clientProperties,
            List<ClearingStage> clearingStages,
            String projectionGroup,
            Duration timeout) {
        Check.that(!clearingStages.isEmpty(), "clearing has at least one input topic");
        this.clearingStages = List.copyOf(clearingStages);
        this.projectionGroup = projectionGroup;
        this.timeout = timeout;
        Map<String, Object> adminProperties = new HashMap<>(clientProperties);
        adminProperties.put(CommonClientConfigs.CLIENT_ID_CONFIG, CLIENT_ID + "-admin");
        this.admin = Admin.create(adminProperties);
        Map<String, Object> readerProperties = new HashMap<>(clientProperties);
        readerProperties.put(CommonClientConfigs.CLIENT_ID_CONFIG, CLIENT_ID + "-outcomes");
        readerProperties.remove(ConsumerConfig.GROUP_ID_CONFIG);
        readerProperties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        readerProperties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, RECORDS_PER_POLL);
        readerProperties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        readerProperties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        this.reader = new KafkaConsumer<>(readerProperties);
    }

    @Override
    public Positions outcomesEnd() {
        return positions(ends(Topics.PAYMENT_OUTCOMES));
    }

    @Override
    public int clearingStages() {
        return clearingStages.size();
    }

    @Override
    public Positions clearingInputsEnd(int stage) {
        return positions(ends(clearingStages.get(stage).topic()));
    }

    @Override
    public boolean clearingPast(int stage, Positions inputs) {
        ClearingStage input = clearingStages.get(stage);
        return committedPast(input.group(), inputs, input.topic());
    }

    @Override
    public boolean projectedPast(Positions outcomes) {
        return committedPast(projectionGroup, outcomes, Topics.PAYMENT_OUTCOMES);
    }

    @Override
    public Optional<List<Payment>> settledBetween(Positions from, Positions to, int recordsMax) {
        Map<TopicPartition, long[]> ranges = new LinkedHashMap<>();
        long records = 0;
        for (Map.Entry<String, Long> end : to.nextOffsets().entrySet()) {
            long start = from.nextOffsets().getOrDefault(end.getKey(), 0L);
            if (end.getValue() > start) {
                ranges.put(partition(end.getKey()), new long[] {start, end.getValue()});
                records += end.getValue() - start;
            }
        }
        if (records > recordsMax) {
            return Optional.empty();
        }
        Map<Id128, Payment> settled = new LinkedHashMap<>();
        if (ranges.isEmpty()) {
            return Optional.of(List.of());
        }
        reader.assign(ranges.keySet());
        try {
            ranges.forEach((partition, range) -> reader.seek(partition, range[0]));
            readRanges(ranges, settled, records);
        } finally {
            reader.unsubscribe();
        }
        return Optional.of(List.copyOf(settled.values()));
    }

    /** Polls until every range is read (at most {@code records} records, within the timeout). */
    private void readRanges(Map<TopicPartition, long[]> ranges, Map<Id128, Payment> settled, long records) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, long[]> left = new HashMap<>(ranges);
        long read = 0;
        while (!left.isEmpty()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the outcomes window was not read within " + timeout);
            }
            for (ConsumerRecord<byte[], byte[]> record : reader.poll(Duration.ofMillis(100))) {
                TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                long[] range = ranges.get(partition);
                if (range == null || record.offset() >= range[1]) {
                    continue;
                }
                read++;
                settledOf(record.value())
                        .ifPresent(payment -> settled.putIfAbsent(payment.id().value(), payment));
            }
            Check.that(read <= records, "read %d records of a %d-record window", read, records);
            left.entrySet().removeIf(range -> reader.position(range.getKey()) >= range.getValue()[1]);
            for (TopicPartition done : ranges.keySet()) {
                if (!left.containsKey(done)) {
                    reader.pause(List.of(done));
                }
            }
        }
    }

    /**
     * The payment of a SETTLED outcome. A record that does not decode, or names parties outside the account scheme,
     * is left out: the projection set it aside too (the read model does not hold it), and the payment step judges
     * what the read model holds.
     */
    private static Optional<Payment> settledOf(byte[] value) {
        try {
            PaymentEvent event = PaymentEventCodec.decode(value);
            if (!(event instanceof PaymentSettled settled)) {
                return Optional.empty();
            }
            return Optional.of(new Payment(
                    new PaymentId(Id128.parse(settled.paymentId())),
                    Id128.parse(settled.payerAccountId()),
                    Id128.parse(settled.payeeAccountId()),
                    settled.amountCentavos()));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private boolean committedPast(String group, Positions ends, String topic) {
        Map<TopicPartition, OffsetAndMetadata> committed =
                await(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        for (Map.Entry<String, Long> end : ends.nextOffsets().entrySet()) {
            TopicPartition partition = partition(end.getKey());
            if (!partition.topic().equals(topic) || end.getValue() == 0) {
                continue;
            }
            OffsetAndMetadata offset = committed.get(partition);
            if (offset == null || offset.offset() < end.getValue()) {
                return false;
            }
        }
        return true;
    }

    private Map<TopicPartition, Long> ends(String topic) {
        TopicDescription description;
        try {
            description = admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .get(topic);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Map.of();
            }
            throw new IllegalStateException("describing " + topic + " failed", e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw interrupted(e);
        }
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        description
                .partitions()
                .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
        Map<TopicPartition, Long> ends = new HashMap<>();
        await(admin.listOffsets(latest).all()).forEach((partition, info) -> ends.put(partition, info.offset()));
        return ends;
    }

    private <T> T await(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a Kafka admin request failed", e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw interrupted(e);
        }
    }

    private static IllegalStateException interrupted(Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        return new IllegalStateException("a Kafka admin request did not complete", e);
    }

    private static Positions positions(Map<TopicPartition, Long> ends) {
        Map<String, Long> offsets = new HashMap<>();
        ends.forEach((partition, offset) -> offsets.put(partition.topic() + ":" + partition.partition(), offset));
        return new Positions(offsets);
    }

    private static TopicPartition partition(String key) {
        int colon = key.lastIndexOf(':');
        Check.that(colon > 0, "a partition key is topic:partition: %s", key);
        return new TopicPartition(key.substring(0, colon), Integer.parseInt(key.substring(colon + 1)));
    }

    @Override
    public void close() {
        reader.close();
        admin.close(Duration.ofSeconds(5));
    }

    /** One of clearing's input topics and the consumer group that reads it. */
    public record ClearingStage(String topic, String group) {}

    /** Clearing's requests topic, then its expiry topic (where it parks what it hands on), with their groups. */
    static List<ClearingStage> clearingStages(String requestsGroup, String expiryGroup) {
        return List.of(
                new ClearingStage(Topics.PAYMENTS_REQUESTED, requestsGroup),
                new ClearingStage(Topics.CLEARING_UNANSWERED, expiryGroup));
    }
}
