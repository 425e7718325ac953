package io.pagora.events.participant;

import java.util.List;

/** A pull's 200 body: {@code {"messages":[…]}}, as docs/participants.md shows it. */
public record StreamAnswer(List<ParticipantMessage> messages) {

    public StreamAnswer {
        messages = messages == null ? List.of() : List.copyOf(messages);
    }

    public static StreamAnswer decode(byte[] json) {
        return ParticipantCodec.decode(json, StreamAnswer.class);
    }
}
