package io.pagora.clearing.adapter.kafka;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.clearing.application.Alarm;
import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.config.ClearingProperties;
import io.pagora.events.DeadLetterConvention;
import io.pagora.kernel.Check;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.AbstractRecords;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.RecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;

/**
 * Sends records clearing cannot process to their dead-letter topics as {@link DeadLetterConvention} says (same
 * partition, key, value and headers, the reason in its header, the original coordinates in Spring's
 * {@code kafka_dlt-original-*} headers, binary, as Spring's DeadLetterPublishingRecoverer writes them). Synchronous:
 * the batch that found the record commits only after the dead letter is acknowledged, so a bad record is never
 * lost nor blocks its partition. A record that fits its topic but not, with those headers, the producer's
 * {@code max.request.size} is dead-lettered without its key, value and headers ({@value #VALUE_OMITTED_HEADER}
 * says how many value bytes): the letter names where the original lies, and the partition moves on.
 */
@Component
public class DeadLetters {

    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);

    /** Kafka's default producer max.request.size, used when the configuration does not name one. */
    static final int KAFKA_DEFAULT_REQUEST_BYTES_MAX = 1_048_576;

    /** On a dead letter sent without the original's value (too large with the added headers): the value's size in bytes. */
    public static final String VALUE_OMITTED_HEADER = "pagora-dead-letter-value-omitted-bytes";

    private final KafkaTemplate<String, byte[]> kafka;
    private final Duration timeout;
    private final int requestBytesMax;
    private final Counter deadLettered;
    private final Counter integrityAlarms;

    public DeadLetters(KafkaTemplate<String, byte[]> kafka, ClearingProperties properties, MeterRegistry meters) {
        this.kafka = kafka;
        this.timeout = properties.publishTimeout();
        this.requestBytesMax = requestBytesMax(kafka);
        // Registered up front: a dashboard shows 0 dead letters, not "no data".
        this.deadLettered = Counter.builder("pagora.clearing.dead.letters")
                .description("Records clearing sent to a dead-letter topic (acknowledged by Kafka)")
                .register(meters);
        this.integrityAlarms = Counter.builder("pagora.clearing.integrity.alarms")
                .description(
                        "Payments whose ids the ledger shows to hold another payment's transfers (dead-lettered, no outcome)")
                .register(meters);
    }

    /** A record and why it cannot be processed. */
    public record DeadLetter(ConsumerRecord<String, byte[]> record, String reason) {
        public DeadLetter {
            reason = DeadLetterConvention.reason(reason);
        }
    }

    /**
     * Sets aside what a poll could not clear, one dead letter per record: each request that failed
     * alone, and each integrity alarm (counted apart: an alarm is not a refusal, and a human must look
     * at it). A request that failed alone and then showed an alarm gets the alarm's letter, which also
     * says what it failed on.
     */
    void setAside(BadRecordIsolation.Result result, Map<ClearingRequest, ConsumerRecord<String, byte[]>> origins) {
        Map<ConsumerRecord<String, byte[]>, String> failures = new IdentityHashMap<>();
        for (BadRecordIsolation.Failed failed : result.failed()) {
            failures.put(
                    failed.record(), "failed alone after retries: " + KafkaConfiguration.rootCause(failed.cause()));
        }
        List<DeadLetter> letters = new ArrayList<>();
        List<Alarm> alarms = result.alarms();
        for (Alarm alarm : alarms) {
            ConsumerRecord<String, byte[]> record = origins.get(alarm.request());
            Check.that(record != null, "every alarmed request has its record");
            String failure = failures.remove(record);
            letters.add(new DeadLetter(
                    record, "integrity alarm: " + alarm.detail() + (failure == null ? "" : " (" + failure + ")")));
        }
        failures.forEach((record, reason) -> letters.add(new DeadLetter(record, reason)));
        send(letters);
        integrityAlarms.increment(alarms.size());
    }

    public void send(List<DeadLetter> deadLetters) {
        if (deadLetters.isEmpty()) {
            return;
        }
        List<CompletableFuture<SendResult<String, byte[]>>> sends = new ArrayList<>(deadLetters.size());
        for (DeadLetter deadLetter : deadLetters) {
            ConsumerRecord<String, byte[]> original = deadLetter.record();
            log.warn(
                    "dead-lettering {}-{}@{}: {}",
                    original.topic(),
                    original.partition(),
                    original.offset(),
                    deadLetter.reason());
            ProducerRecord<String, byte[]> record = letter(deadLetter, true);
            if (sizeBytesUpperBound(record) > requestBytesMax) {
                // Whole, it would be refused for good (RecordTooLargeException), the poll retried forever and
                // every payment behind it left without an outcome. The original stays at its coordinates.
                log.warn(
                        "dead letter of {}-{}@{} too large with its headers ({} bytes > max.request.size {}): "
                                + "sent without the original's key, value and headers",
                        original.topic(),
                        original.partition(),
                        original.offset(),
                        sizeBytesUpperBound(record),
                        requestBytesMax);
                record = letter(deadLetter, false);
            }
            sends.add(kafka.send(record));
        }
        KafkaSends.awaitAll(sends, timeout, "dead letters");
        deadLettered.increment(deadLetters.size());
    }

    /** The dead letter: whole (the convention), or only the reason and where the original lies. */
    private static ProducerRecord<String, byte[]> letter(DeadLetter deadLetter, boolean whole) {
        ConsumerRecord<String, byte[]> original = deadLetter.record();
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(
                DeadLetterConvention.topicOf(original.topic()),
                original.partition(),
                whole ? original.key() : null,
                whole ? original.value() : new byte[0]);
        if (whole) {
            for (Header header : original.headers()) {
                record.headers().add(header);
            }
        } else {
            int valueBytes = original.value() == null ? 0 : original.value().length;
            record.headers().add(VALUE_OMITTED_HEADER, utf8(Integer.toString(valueBytes)));
        }
        record.headers()
                .add(DeadLetterConvention.REASON_HEADER, DeadLetterConvention.reasonHeader(deadLetter.reason()))
                .add(KafkaHeaders.DLT_ORIGINAL_TOPIC, utf8(original.topic()))
                .add(
                        KafkaHeaders.DLT_ORIGINAL_PARTITION,
                        ByteBuffer.allocate(Integer.BYTES)
                                .putInt(original.partition())
                                .array())
                .add(
                        KafkaHeaders.DLT_ORIGINAL_OFFSET,
                        ByteBuffer.allocate(Long.BYTES)
                                .putLong(original.offset())
                                .array())
                .add(
                        KafkaHeaders.DLT_ORIGINAL_TIMESTAMP,
                        ByteBuffer.allocate(Long.BYTES)
                                .putLong(original.timestamp())
                                .array());
        return record;
    }

    /** The producer's own size check (max.request.size applies to this bound), so a refusal is foreseen. */
    private static int sizeBytesUpperBound(ProducerRecord<String, byte[]> record) {
        return AbstractRecords.estimateSizeInBytesUpperBound(
                RecordBatch.CURRENT_MAGIC_VALUE,
                CompressionType.NONE,
                record.key() == null ? null : utf8(record.key()),
                record.value(),
                record.headers().toArray());
    }

    private static int requestBytesMax(KafkaTemplate<String, byte[]> kafka) {
        Object configured =
                kafka.getProducerFactory().getConfigurationProperties().get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
        int bytes = configured == null ? KAFKA_DEFAULT_REQUEST_BYTES_MAX : Integer.parseInt(configured.toString());
        Check.that(bytes >= 64 * 1024, "max.request.size at least 64 KiB: %d", bytes);
        return bytes;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
