package io.pagora.clearing.adapter.kafka;

import io.pagora.clearing.application.UnansweredPayments;
import io.pagora.clearing.config.ClearingProperties;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentRequested;
import io.pagora.events.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;

/**
 * Parks unanswered payments on the clearing-internal topic {@link Topics#CLEARING_UNANSWERED}: the
 * {@code PaymentRequested} JSON, keyed by payer, with the deadline in header {@value #DEADLINE_HEADER}
 * (ISO-8601). Records of one partition are appended in acceptance order, so their deadlines ascend.
 */
@Component
public class KafkaUnansweredPayments implements UnansweredPayments {

    public static final String DEADLINE_HEADER = "pagora-expiry-deadline";

    private final KafkaTemplate<String, byte[]> kafka;
    private final Duration timeout;

    public KafkaUnansweredPayments(KafkaTemplate<String, byte[]> kafka, ClearingProperties properties) {
        this.kafka = kafka;
        this.timeout = properties.publishTimeout();
    }

    @Override
    public void park(List<PaymentRequested> payments, Instant deadline) {
        byte[] deadlineHeader = deadline.toString().getBytes(StandardCharsets.UTF_8);
        List<CompletableFuture<SendResult<String, byte[]>>> sends = new ArrayList<>(payments.size());
        for (PaymentRequested payment : payments) {
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.CLEARING_UNANSWERED, payment.key(),
                    PaymentEventCodec.encode(payment));
            record.headers().add(DEADLINE_HEADER, deadlineHeader);
            sends.add(kafka.send(record));
        }
        KafkaSends.awaitAll(sends, timeout, "unanswered payments");
    }
}
