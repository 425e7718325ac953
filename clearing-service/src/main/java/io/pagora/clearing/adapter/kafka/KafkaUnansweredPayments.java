package io.pagora.clearing.adapter.kafka;

import io.pagora.clearing.application.UnansweredPayments;
import io.pagora.clearing.config.ClearingProperties;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentRequested;
import io.pagora.events.Topics;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.PaymentId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;

/**
 * Parks unanswered payments on the clearing-internal topic {@link Topics#CLEARING_UNANSWERED}, with the deadline in
 * header {@value #DEADLINE_HEADER} (ISO-8601). A whole request is its {@code PaymentRequested} JSON, keyed by payer;
 * instructed payments travel as ids alone, {@value #IDS_PER_RECORD_MAX} at most per record (16 bytes each, big-endian
 * high then low half), marked by header {@value #KIND_HEADER} = {@value #INSTRUCTED_IDS}. Records of one partition
 * are appended in acceptance order, so their deadlines ascend.
 */
@Component
public class KafkaUnansweredPayments implements UnansweredPayments {

    public static final String DEADLINE_HEADER = "pagora-expiry-deadline";
    public static final String KIND_HEADER = "pagora-parked-kind";
    public static final String INSTRUCTED_IDS = "instructed-ids";
    /** 64 KiB of ids: a poll of thousands of payments is a few records, each well under Kafka's record limit. */
    static final int IDS_PER_RECORD_MAX = 4096;
    private static final int ID_BYTES = 16;

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

    @Override
    public void parkInstructed(List<PaymentId> payments, Instant deadline) {
        byte[] deadlineHeader = deadline.toString().getBytes(StandardCharsets.UTF_8);
        byte[] kindHeader = INSTRUCTED_IDS.getBytes(StandardCharsets.US_ASCII);
        List<CompletableFuture<SendResult<String, byte[]>>> sends = new ArrayList<>();
        for (int from = 0; from < payments.size(); from += IDS_PER_RECORD_MAX) {
            List<PaymentId> slice = payments.subList(from, Math.min(payments.size(), from + IDS_PER_RECORD_MAX));
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.CLEARING_UNANSWERED,
                    slice.getFirst().toString(), encodeIds(slice));
            record.headers().add(DEADLINE_HEADER, deadlineHeader);
            record.headers().add(KIND_HEADER, kindHeader);
            sends.add(kafka.send(record));
        }
        KafkaSends.awaitAll(sends, timeout, "instructed payments");
    }

    static byte[] encodeIds(List<PaymentId> ids) {
        Check.that(!ids.isEmpty() && ids.size() <= IDS_PER_RECORD_MAX, "1..%d ids per record: %d", IDS_PER_RECORD_MAX,
                ids.size());
        ByteBuffer buffer = ByteBuffer.allocate(ids.size() * ID_BYTES);
        ids.forEach(id -> buffer.putLong(id.value().hi()).putLong(id.value().lo()));
        return buffer.array();
    }

    /** The ids of an instructed-ids record; a value that is not whole ids (1 to the maximum) is refused. */
    static List<PaymentId> decodeIds(byte[] value) {
        if (value == null || value.length == 0 || value.length % ID_BYTES != 0
                || value.length / ID_BYTES > IDS_PER_RECORD_MAX) {
            throw new IllegalArgumentException("not 1.." + IDS_PER_RECORD_MAX + " payment ids of " + ID_BYTES
                    + " bytes: " + (value == null ? "no value" : value.length + " bytes"));
        }
        ByteBuffer buffer = ByteBuffer.wrap(value);
        List<PaymentId> ids = new ArrayList<>(value.length / ID_BYTES);
        while (buffer.hasRemaining()) {
            ids.add(new PaymentId(new Id128(buffer.getLong(), buffer.getLong())));
        }
        return ids;
    }

    /** Whether a parked record holds instructed payments' ids (else a whole request). */
    static boolean holdsInstructedIds(Headers headers) {
        Header kind = headers.lastHeader(KIND_HEADER);
        return kind != null && kind.value() != null
                && INSTRUCTED_IDS.equals(new String(kind.value(), StandardCharsets.US_ASCII));
    }
}
