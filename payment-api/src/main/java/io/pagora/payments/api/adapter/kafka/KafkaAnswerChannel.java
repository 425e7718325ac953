package io.pagora.payments.api.adapter.kafka;

import io.pagora.events.Topics;
import io.pagora.events.participant.AnswerBatch;
import io.pagora.events.participant.ParticipantCodec;
import io.pagora.events.participant.VerdictBatch;
import io.pagora.payments.api.application.answers.AnswerChannel;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Answers to {@link Topics#PARTICIPANT_ANSWERS} (one record per call, acks=all), verdicts back from
 * {@link Topics#PARTICIPANT_VERDICTS}: one thread reads every partition of it from the end as of startup and completes
 * the calls this instance holds (a verdict for a call of another instance is skipped). At most {@code waitingMax}
 * calls wait at once.
 */
public final class KafkaAnswerChannel implements AnswerChannel, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaAnswerChannel.class);

    private final KafkaTemplate<String, byte[]> kafka;
    private final KafkaConsumer<String, byte[]> verdicts;
    private final Map<String, CompletableFuture<VerdictBatch>> waiting = new ConcurrentHashMap<>();
    private final int waitingMax;
    private final Thread reader;
    private volatile boolean running = true;

    public KafkaAnswerChannel(
            KafkaTemplate<String, byte[]> kafka, Map<String, Object> kafkaProperties, int waitingMax) {
        this.kafka = kafka;
        this.waitingMax = waitingMax;
        Map<String, Object> config = new HashMap<>(kafkaProperties);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "payment-api-verdicts");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // A verdict is answered at once (fetch.min.bytes 1); the wait only bounds an idle fetch.
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 500);
        config.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 1);
        this.verdicts = new KafkaConsumer<>(config);
        this.reader = Thread.ofPlatform().daemon().name("answer-verdicts").unstarted(this::readVerdicts);
    }

    /**
     * Starts the verdict reader, which first positions itself at the end of every partition (retrying while the broker
     * is unreachable: payment-api starts without it). A call answered before that waits in vain and is told
     * verdict-pending, and its retry is answered: nothing is lost, the answer is stored.
     */
    public void start() {
        reader.start();
    }

    private void positionAtTheEnd() {
        List<TopicPartition> partitions = new java.util.ArrayList<>();
        for (int p = 0; p < Topics.PARTITIONS; p++) {
            partitions.add(new TopicPartition(Topics.PARTICIPANT_VERDICTS, p));
        }
        verdicts.assign(partitions);
        verdicts.seekToEnd(partitions);
        partitions.forEach(partition -> verdicts.position(partition, Duration.ofSeconds(5)));
    }

    @Override
    public Submitted submit(AnswerBatch answers) {
        CompletableFuture<VerdictBatch> verdict = new CompletableFuture<>();
        if (waiting.size() >= waitingMax) {
            verdict.completeExceptionally(new IllegalStateException("too many calls waiting for verdicts"));
            return new Submitted(CompletableFuture.failedFuture(new IllegalStateException("overloaded")), verdict);
        }
        waiting.put(answers.requestId(), verdict);
        verdict.whenComplete((ignored, failure) -> waiting.remove(answers.requestId()));
        CompletableFuture<Void> stored;
        try {
            stored = kafka.send(new ProducerRecord<>(
                            Topics.PARTICIPANT_ANSWERS, answers.bank(), ParticipantCodec.encode(answers)))
                    .thenApply(result -> null);
        } catch (RuntimeException e) {
            // The producer refused at once (no metadata within max.block.ms: the broker is unreachable).
            stored = CompletableFuture.failedFuture(e);
        }
        stored.whenComplete((ignored, failure) -> {
            if (failure != null) {
                verdict.cancel(false);
            }
        });
        return new Submitted(stored, verdict);
    }

    private void readVerdicts() {
        while (running) {
            try {
                positionAtTheEnd();
                break;
            } catch (WakeupException e) {
                return;
            } catch (RuntimeException e) {
                log.debug("the verdict reader cannot position itself yet, retrying: {}", e.toString());
                sleepQuietly();
            }
        }
        while (running) {
            try {
                for (ConsumerRecord<String, byte[]> record : verdicts.poll(Duration.ofMillis(500))) {
                    CompletableFuture<VerdictBatch> call = waiting.get(record.key());
                    if (call != null) {
                        call.complete(ParticipantCodec.decode(record.value(), VerdictBatch.class));
                    }
                }
            } catch (WakeupException e) {
                return;
            } catch (RuntimeException e) {
                log.warn("reading verdicts failed, retrying: {}", e.toString());
                sleepQuietly();
            }
        }
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running = false;
        verdicts.wakeup();
        try {
            reader.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        verdicts.close(Duration.ofSeconds(2));
    }
}
