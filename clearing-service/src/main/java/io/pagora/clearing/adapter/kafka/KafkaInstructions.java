package io.pagora.clearing.adapter.kafka;

import io.pagora.clearing.application.participants.Instructions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;

/** Issues instructions as batched records of the participants' message topic, and waits for Kafka's acknowledgement. */
public final class KafkaInstructions implements Instructions {

    private final KafkaTemplate<String, byte[]> kafka;
    private final Duration timeout;

    public KafkaInstructions(KafkaTemplate<String, byte[]> kafka, Duration timeout) {
        this.kafka = kafka;
        this.timeout = timeout;
    }

    @Override
    public void issue(List<Instruction> instructions) {
        List<CompletableFuture<SendResult<String, byte[]>>> sends =
                ParticipantMessages.instructions(instructions).stream()
                        .map((ProducerRecord<String, byte[]> record) -> kafka.send(record))
                        .toList();
        KafkaSends.awaitAll(sends, timeout, "instructions");
    }
}
