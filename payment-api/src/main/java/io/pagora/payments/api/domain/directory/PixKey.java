package io.pagora.payments.api.domain.directory;

import io.pagora.kernel.Check;
import java.util.Objects;
import java.util.Optional;

/** A PIX key in its stored form: of one {@link KeyType}, well-formed for it, spelled one way. */
public record PixKey(KeyType type, String value) {

    public PixKey {
        Objects.requireNonNull(type, "type");
        Check.that(
                type.normalized(value).filter(value::equals).isPresent(),
                "a %s key in its stored form: %s",
                type,
                value);
    }

    /** The key {@code raw} names as a key of {@code type}, in its stored form; empty if it is not one. */
    public static Optional<PixKey> of(KeyType type, String raw) {
        return type.normalized(raw).map(value -> new PixKey(type, value));
    }

    /** The key {@code raw} names, its type told by its format ({@link KeyType#of}); empty if it is none. */
    public static Optional<PixKey> of(String raw) {
        return KeyType.of(raw).flatMap(type -> of(type, raw));
    }

    @Override
    public String toString() {
        return type + ":" + value;
    }
}
