package io.pagora.events.participant;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** JSON encoding of the participant contracts, shared by every writer and reader. Unknown fields are ignored. */
public final class ParticipantCodec {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    private ParticipantCodec() {}

    public static byte[] encode(Object contract) {
        return MAPPER.writeValueAsBytes(contract);
    }

    /** @throws IllegalArgumentException if the bytes are not a v1 {@code type} */
    public static <T> T decode(byte[] json, Class<T> type) {
        try {
            T value = MAPPER.readValue(json, type);
            if (value == null) {
                throw new IllegalArgumentException("empty " + type.getSimpleName());
            }
            return value;
        } catch (tools.jackson.core.JacksonException e) {
            throw new IllegalArgumentException("not a v1 " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }
}
