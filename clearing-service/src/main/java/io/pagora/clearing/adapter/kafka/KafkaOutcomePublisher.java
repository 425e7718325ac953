package io.pagora.clearing.adapter.kafka;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.clearing.application.OutcomePublisher;
import io.pagora.clearing.config.ClearingProperties;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRejected;
import io.pagora.events.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;

/**
 * Publishes outcomes to {@link Topics#PAYMENT_OUTCOMES}, keyed by payer, and waits for every acknowledgement. With
 * participants as receiving banks, the same outcomes go to the banks' streams too ({@link ParticipantMessages}), in
 * the same wait: a payment's outcome is never told to the read model and not to its banks. Each outcome carries its
 * payment's id in {@value Topics#PAYMENT_ID_HEADER}, for the clearing instances that follow all outcomes
 * ({@link OutcomesFollower}).
 */
@Component
public class KafkaOutcomePublisher implements OutcomePublisher {

    private final KafkaTemplate<String, byte[]> kafka;
    private final Duration timeout;
    private final MeterRegistry meters;
    private final boolean toParticipants;

    public KafkaOutcomePublisher(
            KafkaTemplate<String, byte[]> kafka, ClearingProperties properties, MeterRegistry meters) {
        this.kafka = kafka;
        this.timeout = properties.publishTimeout();
        this.meters = meters;
        this.toParticipants = properties.participantsAnswer();
    }

    @Override
    public void publish(List<PaymentOutcome> outcomes, Set<String> payerOnly) {
        List<CompletableFuture<SendResult<String, byte[]>>> sends = new ArrayList<>(outcomes.size());
        for (PaymentOutcome outcome : outcomes) {
            ProducerRecord<String, byte[]> record =
                    new ProducerRecord<>(Topics.PAYMENT_OUTCOMES, outcome.key(), PaymentEventCodec.encode(outcome));
            record.headers().add(Topics.PAYMENT_ID_HEADER, outcome.paymentId().getBytes(StandardCharsets.US_ASCII));
            sends.add(kafka.send(record));
        }
        if (toParticipants) {
            ParticipantMessages.outcomes(outcomes, payerOnly).forEach(record -> sends.add(kafka.send(record)));
        }
        KafkaSends.awaitAll(sends, timeout, "outcomes");
        // Counted per (status, reason) once a poll, not looked up in the registry once a payment.
        Map<List<String>, Integer> counts = new HashMap<>();
        for (PaymentOutcome outcome : outcomes) {
            String reason = outcome instanceof PaymentRejected rejected
                    ? rejected.reason().name()
                    : "";
            counts.merge(List.of(outcome.status(), reason), 1, Integer::sum);
        }
        counts.forEach((statusAndReason, count) -> Counter.builder("pagora.clearing.outcomes")
                .description("Payment outcomes published (acknowledged by Kafka)")
                .tag("status", statusAndReason.get(0))
                .tag("reason", statusAndReason.get(1))
                .register(meters)
                .increment(count));
    }
}
