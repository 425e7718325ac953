package io.pagora.events.participant;

import java.util.List;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

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

    private static final ObjectWriter WRITER = JsonMapper.builder().build()
            .writerFor(new TypeReference<List<ParticipantMessage>>() {});

    private MessageRecords() {}

    public static byte[] encode(List<ParticipantMessage> messages) {
        if (messages.isEmpty() || messages.size() > MESSAGES_MAX) {
            throw new IllegalArgumentException("a message record holds 1.." + MESSAGES_MAX + " messages: " + messages.size());
        }
        return WRITER.writeValueAsBytes(messages);
    }

    /** The messages of a stream's answer (or of one record): a JSON array. */
    public static List<ParticipantMessage> decode(byte[] json) {
        return List.of(ParticipantCodec.decode(json, ParticipantMessage[].class));
    }
}
