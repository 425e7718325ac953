package io.pagora.events.participant;

import io.pagora.events.json.JsonText;
import java.util.List;

/**
 * How messages for one participant are stored in {@code Topics.PARTICIPANT_MESSAGES}: a record keyed by the
 * recipient's ISPB whose value is a JSON array of at most {@link #MESSAGES_MAX} {@link ParticipantMessage}s, exactly
 * as a stream returns them, with their count in header {@value #COUNT_HEADER}. A stream's answer is then the arrays
 * of whole records joined, never decoded and encoded again message by message.
 */
public final class MessageRecords {

    /** At most this many messages per record; a pull returns whole records. */
    public static final int MESSAGES_MAX = 500;
    /** The number of messages in the record, as decimal text. */
    public static final String COUNT_HEADER = "pagora-message-count";

    /** About what one message takes as JSON: the buffer's first size. */
    private static final int MESSAGE_BYTES_TYPICAL = 360;

    private MessageRecords() {}

    public static byte[] encode(List<ParticipantMessage> messages) {
        if (messages.isEmpty() || messages.size() > MESSAGES_MAX) {
            throw new IllegalArgumentException(
                    "a message record holds 1.." + MESSAGES_MAX + " messages: " + messages.size());
        }
        JsonText json = new JsonText(messages.size() * MESSAGE_BYTES_TYPICAL);
        json.raw('[');
        for (int i = 0; i < messages.size(); i++) {
            if (i > 0) {
                json.raw(',');
            }
            write(json, messages.get(i));
        }
        return json.raw(']').bytes();
    }

    /**
     * One message as Jackson writes it for {@link ParticipantMessage} (its {@code type} first, then the record's
     * components in order, instants as ISO-8601): ParticipantContractsTest holds the two to the same bytes.
     */
    private static void write(JsonText json, ParticipantMessage message) {
        json.beginObject();
        switch (message) {
            case PaymentInstruction m ->
                json.field("type", "PaymentInstruction")
                        .field("id", m.id())
                        .field("paymentId", m.paymentId())
                        .field("endToEndId", m.endToEndId())
                        .field("payerAccountId", m.payerAccountId())
                        .field("payeeAccountId", m.payeeAccountId())
                        .field("amountCentavos", m.amountCentavos())
                        .field("acceptedAt", m.acceptedAt())
                        .field("answerBy", m.answerBy())
                        .field("originalPaymentId", m.originalPaymentId())
                        .field("returnReason", m.returnReason());
            case PaymentConcluded m ->
                json.field("type", "PaymentConcluded")
                        .field("id", m.id())
                        .field("paymentId", m.paymentId())
                        .field("role", m.role() == null ? null : m.role().name())
                        .field("status", m.status())
                        .field("reason", m.reason())
                        .field("payerAccountId", m.payerAccountId())
                        .field("payeeAccountId", m.payeeAccountId())
                        .field("amountCentavos", m.amountCentavos())
                        .field("occurredAt", m.occurredAt())
                        .field("endToEndId", m.endToEndId());
            case KeyClaimNotice m ->
                json.field("type", "KeyClaimNotice")
                        .field("id", m.id())
                        .field("paymentId", m.paymentId())
                        .field("claimId", m.claimId())
                        .field("key", m.key())
                        .field("claimType", m.claimType())
                        .field("role", m.role())
                        .field("status", m.status())
                        .field("resolution", m.resolution())
                        .field("resolveBy", m.resolveBy())
                        .field("occurredAt", m.occurredAt());
            case LiquidityAlert m ->
                json.field("type", "LiquidityAlert")
                        .field("id", m.id())
                        .field("paymentId", m.paymentId())
                        .field("crossing", m.crossing())
                        .field("availableCentavos", m.availableCentavos())
                        .field("lowWatermarkCentavos", m.lowWatermarkCentavos())
                        .field("highWatermarkCentavos", m.highWatermarkCentavos())
                        .field("occurredAt", m.occurredAt());
            case InfractionReportNotice m ->
                json.field("type", "InfractionReportNotice")
                        .field("id", m.id())
                        .field("paymentId", m.paymentId())
                        .field("reportId", m.reportId())
                        .field("role", m.role())
                        .field("status", m.status())
                        .field("reason", m.reason())
                        .field("amountCentavos", m.amountCentavos())
                        .field("heldCentavos", m.heldCentavos())
                        .field("analyseBy", m.analyseBy())
                        .field("decisionReason", m.decisionReason())
                        .field("occurredAt", m.occurredAt());
            case CautionaryHold m ->
                json.field("type", "CautionaryHold")
                        .field("id", m.id())
                        .field("paymentId", m.paymentId())
                        .field("reportId", m.reportId())
                        .field("accountId", m.accountId())
                        .field("hop", m.hop())
                        .field("heldCentavos", m.heldCentavos())
                        .field("status", m.status())
                        .field("holdUntil", m.holdUntil())
                        .field("occurredAt", m.occurredAt());
        }
        json.endObject();
    }

    /** One record for {@code bank} (its key): its value, and its message count (header {@value #COUNT_HEADER}). */
    public record Sliced(String bank, byte[] value, int count) {}

    /** Each bank's messages as records of at most {@link #MESSAGES_MAX} messages each, in order. */
    public static List<Sliced> sliced(java.util.Map<String, List<ParticipantMessage>> byBank) {
        List<Sliced> records = new java.util.ArrayList<>();
        byBank.forEach((bank, messages) -> {
            for (int from = 0; from < messages.size(); from += MESSAGES_MAX) {
                List<ParticipantMessage> slice = messages.subList(from, Math.min(messages.size(), from + MESSAGES_MAX));
                records.add(new Sliced(bank, encode(slice), slice.size()));
            }
        });
        return records;
    }

    /** The messages of a stream's answer (or of one record): a JSON array. */
    public static List<ParticipantMessage> decode(byte[] json) {
        return List.of(ParticipantCodec.decode(json, ParticipantMessage[].class));
    }
}
