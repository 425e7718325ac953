package io.pagora.clearing.adapter.kafka;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.Topics;
import io.pagora.kernel.Check;
import io.pagora.settlement.domain.PaymentId;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Tells this clearing instance which payments are resolved, whichever instance published their outcome. With
 * participants, the instance that reserves and instructs a payment is the one owning its request's partition (keyed by
 * payer), while its answer is applied by the one owning the answers' partition (keyed by the payee's bank), in another
 * consumer group: with two instances about half the chains are resolved by the other one. Counting only its own
 * publications, an instance's instructed window would fill with chains already settled elsewhere and hold back its
 * polls until they were forgotten, a pending timeout later.
 *
 * <p>So every instance reads all of {@link Topics#PAYMENT_OUTCOMES} outside any consumer group (it commits nothing and
 * takes no partition from anyone), from the time it started, and passes each poll's payment ids on. It reads only the
 * {@value Topics#PAYMENT_ID_HEADER} header, not the outcome (decoded only when a record has no header). It serves flow
 * control and gauges, never money: a lagging follower makes the window wait longer, at most its bound, and a failed
 * one is started again.
 */
public final class OutcomesFollower implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(OutcomesFollower.class);

    public static final String FOLLOWED = "pagora.clearing.outcomes.followed";
    public static final String FAILURES = "pagora.clearing.outcomes.follower.failures";
    static final Duration POLL = Duration.ofMillis(500);
    /** Between attempts to learn the topic's partitions (the broker may be down or the topic not created yet). */
    static final Duration RETRY = Duration.ofSeconds(1);

    static final Duration STOP_WAIT = Duration.ofSeconds(10);
    /** After a failure, before a new consumer: a failure that repeats costs a log line this often, not a busy loop. */
    static final Duration RESTART_PAUSE = Duration.ofSeconds(5);
    /** Outcomes published just before this instance started may belong to chains it reserves in its first moments. */
    static final Duration START_LOOKBACK = Duration.ofSeconds(5);

    static final int RECORDS_PER_POLL_MAX = 10_000;

    private final Map<String, Object> consumerProperties;
    private final Consumer<List<PaymentId>> resolved;
    private final Clock clock;
    private final Counter followed;
    private final Counter failures;
    private volatile boolean running;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private Thread thread;

    /**
     * @param consumerProperties the service's consumer settings (brokers, TLS); the group settings are removed
     * @param resolved told the payment ids of every outcome published, a poll at a time
     */
    public OutcomesFollower(
            Map<String, Object> consumerProperties,
            Consumer<List<PaymentId>> resolved,
            Clock clock,
            MeterRegistry meters) {
        Map<String, Object> properties = new HashMap<>(consumerProperties);
        properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
        properties.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        Object clientId = properties.getOrDefault(ConsumerConfig.CLIENT_ID_CONFIG, "clearing-service");
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId + "-outcomes-follower");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, RECORDS_PER_POLL_MAX);
        properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        this.consumerProperties = Map.copyOf(properties);
        this.resolved = resolved;
        this.clock = clock;
        this.followed = Counter.builder(FOLLOWED)
                .description("Outcomes, of every clearing instance, read to resolve this instance's instructed chains")
                .register(meters);
        this.failures = Counter.builder(FAILURES)
                .description("Times the outcomes follower failed and was started again")
                .register(meters);
    }

    @Override
    public synchronized void start() {
        Check.that(thread == null, "the outcomes follower is started once");
        running = true;
        long startedMillis = clock.millis() - START_LOOKBACK.toMillis();
        thread = new Thread(() -> followUntilStopped(startedMillis), "clearing-outcomes-follower");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (thread == null) {
            return;
        }
        KafkaConsumer<byte[], byte[]> current = consumer;
        if (current != null) {
            current.wakeup();
        }
        try {
            thread.join(STOP_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread = null;
    }

    @Override
    public synchronized boolean isRunning() {
        return thread != null;
    }

    /**
     * Follows until stopped. A failure closes the consumer and opens a new one {@link #RESTART_PAUSE} later, from just
     * before the failure: a follower that stayed down would leave every poll of this instance waiting for its window's
     * bound, a pending timeout and more.
     */
    private void followUntilStopped(long fromMillis) {
        long from = fromMillis;
        while (running) {
            follow(from);
            from = clock.millis() - START_LOOKBACK.toMillis();
            if (running && !pause()) {
                return;
            }
        }
    }

    /** Follows with one consumer until stopped or until it fails (logged). */
    private void follow(long fromMillis) {
        try (KafkaConsumer<byte[], byte[]> opened = new KafkaConsumer<>(consumerProperties)) {
            consumer = opened;
            if (!assign(opened, fromMillis)) {
                return;
            }
            while (running) {
                pass(opened.poll(POLL));
            }
        } catch (WakeupException e) {
            // stop() asked.
        } catch (RuntimeException e) {
            failures.increment();
            log.error("the outcomes follower failed; following again in {}", RESTART_PAUSE, e);
        } finally {
            consumer = null;
        }
    }

    /** False when interrupted. */
    private static boolean pause() {
        try {
            Thread.sleep(RESTART_PAUSE.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Every partition, from the first outcome at or after {@code fromMillis}; false when stopped meanwhile. */
    private boolean assign(KafkaConsumer<byte[], byte[]> opened, long fromMillis) {
        List<PartitionInfo> infos = partitions(opened);
        while (running && infos.isEmpty()) {
            try {
                Thread.sleep(RETRY.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            infos = partitions(opened);
        }
        if (!running) {
            return false;
        }
        List<TopicPartition> partitions = infos.stream()
                .map(info -> new TopicPartition(info.topic(), info.partition()))
                .toList();
        opened.assign(partitions);
        Map<TopicPartition, Long> from = new HashMap<>();
        partitions.forEach(partition -> from.put(partition, fromMillis));
        // The end first, then the first offset at the time: a record appended between the two calls is at or past
        // that end, so none is skipped (seekToEnd, resolved at the first poll, skipped what came meanwhile; the
        // end read after the time lookup skipped what came between them).
        Map<TopicPartition, Long> ends = opened.endOffsets(partitions);
        Map<TopicPartition, OffsetAndTimestamp> offsets = opened.offsetsForTimes(from);
        for (TopicPartition partition : partitions) {
            OffsetAndTimestamp offset = offsets.get(partition);
            opened.seek(
                    partition, offset == null ? ends.get(partition) : Math.min(offset.offset(), ends.get(partition)));
        }
        log.info(
                "following {} partitions of {} for outcomes published by any clearing instance",
                partitions.size(),
                Topics.PAYMENT_OUTCOMES);
        return true;
    }

    private static List<PartitionInfo> partitions(KafkaConsumer<byte[], byte[]> opened) {
        try {
            return opened.partitionsFor(Topics.PAYMENT_OUTCOMES, RETRY);
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            log.debug("the outcomes topic is not known yet: {}", e.getMessage());
            return List.of();
        }
    }

    private void pass(ConsumerRecords<byte[], byte[]> records) {
        if (records.isEmpty()) {
            return;
        }
        List<PaymentId> payments = new ArrayList<>(records.count());
        for (ConsumerRecord<byte[], byte[]> record : records) {
            PaymentId payment = paymentOf(record);
            if (payment != null) {
                payments.add(payment);
            }
        }
        resolved.accept(payments);
        followed.increment(records.count());
    }

    /** The record's payment, or null when it names none (reporting dead-letters such a record; here it is skipped). */
    static PaymentId paymentOf(ConsumerRecord<byte[], byte[]> record) {
        try {
            Header header = record.headers().lastHeader(Topics.PAYMENT_ID_HEADER);
            if (header != null) {
                return PaymentId.parse(new String(header.value(), StandardCharsets.US_ASCII));
            }
            return PaymentId.parse(PaymentEventCodec.decode(record.value()).paymentId());
        } catch (RuntimeException e) {
            return null;
        }
    }
}
