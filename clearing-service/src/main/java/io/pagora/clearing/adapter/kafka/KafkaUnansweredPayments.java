package io.pagora.clearing.adapter.kafka;

import io.pagora.clearing.application.UnansweredPayments;
import io.pagora.clearing.application.UnansweredPayments.Instructed;
import io.pagora.clearing.config.ClearingProperties;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentRequested;
import io.pagora.events.Topics;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.PaymentId;
import java.io.ByteArrayOutputStream;
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
 * header {@value #DEADLINE_HEADER} (ISO-8601). A whole request is its {@code PaymentRequested} JSON, keyed by payer.
 * Instructed payments travel as ids with their end-to-end ids, {@value #IDS_PER_RECORD_MAX} at most per record, marked
 * by header {@value #KIND_HEADER} = {@value #INSTRUCTED_PAYMENTS}: each is 16 bytes of id (big-endian high then low
 * half), one byte n, then n bytes of its end-to-end id in UTF-8 (n = 0: none; one longer than
 * {@value #END_TO_END_ID_BYTES_MAX} bytes, which no PIX id is, is not carried). Records of the earlier kind
 * {@value #INSTRUCTED_IDS} (16 bytes per id, no end-to-end ids) are still read. Records of one partition are appended
 * in acceptance order, so their deadlines ascend.
 */
@Component
public class KafkaUnansweredPayments implements UnansweredPayments {

    public static final String DEADLINE_HEADER = "pagora-expiry-deadline";
    public static final String KIND_HEADER = "pagora-parked-kind";
    /** The earlier kind of instructed record: ids alone. Read, no longer written. */
    public static final String INSTRUCTED_IDS = "instructed-ids";

    public static final String INSTRUCTED_PAYMENTS = "instructed-payments";
    /** About 200 KB with PIX ids (330 KB at most): a poll of thousands is a few records, each under Kafka's limit. */
    static final int IDS_PER_RECORD_MAX = 4096;

    private static final int ID_BYTES = 16;
    /** A PIX id is 32 ASCII characters: twice that bounds a record of 4,096 to about 330 KB. */
    static final int END_TO_END_ID_BYTES_MAX = 64;

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
            ProducerRecord<String, byte[]> record =
                    new ProducerRecord<>(Topics.CLEARING_UNANSWERED, payment.key(), PaymentEventCodec.encode(payment));
            record.headers().add(DEADLINE_HEADER, deadlineHeader);
            sends.add(kafka.send(record));
        }
        KafkaSends.awaitAll(sends, timeout, "unanswered payments");
    }

    @Override
    public void parkInstructed(List<Instructed> payments, Instant deadline) {
        byte[] deadlineHeader = deadline.toString().getBytes(StandardCharsets.UTF_8);
        byte[] kindHeader = INSTRUCTED_PAYMENTS.getBytes(StandardCharsets.US_ASCII);
        List<CompletableFuture<SendResult<String, byte[]>>> sends = new ArrayList<>();
        for (int from = 0; from < payments.size(); from += IDS_PER_RECORD_MAX) {
            List<Instructed> slice = payments.subList(from, Math.min(payments.size(), from + IDS_PER_RECORD_MAX));
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(
                    Topics.CLEARING_UNANSWERED, slice.getFirst().payment().toString(), encodeInstructed(slice));
            record.headers().add(DEADLINE_HEADER, deadlineHeader);
            record.headers().add(KIND_HEADER, kindHeader);
            sends.add(kafka.send(record));
        }
        KafkaSends.awaitAll(sends, timeout, "instructed payments");
    }

    /** A record of the earlier kind, {@value #INSTRUCTED_IDS}. */
    static byte[] encodeIds(List<PaymentId> ids) {
        Check.that(
                !ids.isEmpty() && ids.size() <= IDS_PER_RECORD_MAX,
                "1..%d ids per record: %d",
                IDS_PER_RECORD_MAX,
                ids.size());
        ByteBuffer buffer = ByteBuffer.allocate(ids.size() * ID_BYTES);
        ids.forEach(id -> buffer.putLong(id.value().hi()).putLong(id.value().lo()));
        return buffer.array();
    }

    /** The ids of an instructed-ids record; a value that is not whole ids (1 to the maximum) is refused. */
    static List<PaymentId> decodeIds(byte[] value) {
        if (value == null
                || value.length == 0
                || value.length % ID_BYTES != 0
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

    static byte[] encodeInstructed(List<Instructed> payments) {
        Check.that(
                !payments.isEmpty() && payments.size() <= IDS_PER_RECORD_MAX,
                "1..%d payments per record: %d",
                IDS_PER_RECORD_MAX,
                payments.size());
        ByteArrayOutputStream out = new ByteArrayOutputStream(payments.size() * (ID_BYTES + 33));
        ByteBuffer id = ByteBuffer.allocate(ID_BYTES);
        for (Instructed payment : payments) {
            id.clear();
            id.putLong(payment.payment().value().hi())
                    .putLong(payment.payment().value().lo());
            out.writeBytes(id.array());
            byte[] endToEndId = payment.endToEndId() == null
                    ? new byte[0]
                    : payment.endToEndId().getBytes(StandardCharsets.UTF_8);
            if (endToEndId.length > END_TO_END_ID_BYTES_MAX) {
                endToEndId = new byte[0];
            }
            out.write(endToEndId.length);
            out.writeBytes(endToEndId);
        }
        return out.toByteArray();
    }

    /**
     * The instructed payments of a parked record of either kind; a value that is not whole entries (1 to the maximum)
     * is refused.
     */
    static List<Instructed> decodeInstructed(Headers headers, byte[] value) {
        if (!INSTRUCTED_PAYMENTS.equals(kindOf(headers))) {
            return decodeIds(value).stream().map(id -> new Instructed(id, null)).toList();
        }
        if (value == null || value.length == 0) {
            throw new IllegalArgumentException("no instructed payments: " + (value == null ? "no value" : "0 bytes"));
        }
        ByteBuffer buffer = ByteBuffer.wrap(value);
        List<Instructed> payments = new ArrayList<>();
        while (buffer.hasRemaining()) {
            if (buffer.remaining() < ID_BYTES + 1 || payments.size() == IDS_PER_RECORD_MAX) {
                throw new IllegalArgumentException(
                        "not 1.." + IDS_PER_RECORD_MAX + " instructed payments: " + value.length + " bytes");
            }
            PaymentId id = new PaymentId(new Id128(buffer.getLong(), buffer.getLong()));
            int length = Byte.toUnsignedInt(buffer.get());
            if (length > END_TO_END_ID_BYTES_MAX || length > buffer.remaining()) {
                throw new IllegalArgumentException("an end-to-end id of " + length + " bytes in " + value.length
                        + " bytes of instructed payments");
            }
            String endToEndId =
                    length == 0 ? null : new String(value, buffer.position(), length, StandardCharsets.UTF_8);
            buffer.position(buffer.position() + length);
            payments.add(new Instructed(id, endToEndId));
        }
        return payments;
    }

    /** Whether a parked record holds instructed payments (else a whole request). */
    static boolean holdsInstructedIds(Headers headers) {
        String kind = kindOf(headers);
        return INSTRUCTED_IDS.equals(kind) || INSTRUCTED_PAYMENTS.equals(kind);
    }

    private static String kindOf(Headers headers) {
        Header kind = headers.lastHeader(KIND_HEADER);
        return kind == null || kind.value() == null ? null : new String(kind.value(), StandardCharsets.US_ASCII);
    }
}
