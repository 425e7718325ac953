package io.pagora.payments.api.adapter.kafka;

import io.pagora.events.Topics;
import io.pagora.events.participant.MessageRecords;
import io.pagora.events.participant.ParticipantMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Writes messages on the banks' streams ({@code Topics.PARTICIPANT_MESSAGES}, records keyed by the bank's ISPB, as
 * clearing writes instructions) and returns once the broker has every record, or throws: a caller marks a message
 * told only after this returns.
 */
public final class KafkaBankStreams {

    private final KafkaTemplate<String, byte[]> kafka;
    private final Duration timeout;

    public KafkaBankStreams(KafkaTemplate<String, byte[]> kafka, Duration timeout) {
        this.kafka = kafka;
        this.timeout = timeout;
    }

    /** {@code byBank}: each bank's (ISPB's) messages, in order. */
    public void send(Map<String, List<ParticipantMessage>> byBank, String what) {
        List<CompletableFuture<?>> sends = new ArrayList<>();
        for (MessageRecords.Sliced sliced : MessageRecords.sliced(byBank)) {
            ProducerRecord<String, byte[]> record =
                    new ProducerRecord<>(Topics.PARTICIPANT_MESSAGES, sliced.bank(), sliced.value());
            record.headers()
                    .add(
                            MessageRecords.COUNT_HEADER,
                            Integer.toString(sliced.count()).getBytes(StandardCharsets.US_ASCII));
            sends.add(kafka.send(record));
        }
        try {
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while telling " + what, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the broker did not take the " + what + ": " + e, e);
        }
    }
}
