package io.pagora.reporting.domain;

import java.util.Locale;
import java.util.Optional;

/** A payment's status in the read model: ACCEPTED until its one final state is projected. */
public enum PaymentStatus {
    ACCEPTED,
    SETTLED,
    REJECTED,
    EXPIRED;

    public boolean isFinal() {
        return this != ACCEPTED;
    }

    /** Case-insensitive, for query parameters; empty for anything else. */
    public static Optional<PaymentStatus> parse(String text) {
        for (PaymentStatus status : values()) {
            if (status.name().equals(text.toUpperCase(Locale.ROOT))) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }
}
