package io.pagora.reporting.application;

import io.pagora.kernel.Id128;
import io.pagora.reporting.application.ReadModelQueries.Direction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Optional;

/**
 * The position after a statement entry: (settledAt, paymentId, direction), the statement's keyset
 * order. Opaque to clients: base64url of a versioned text, so its layout may change without breaking
 * the API contract (a client only passes back what it was given).
 */
public record StatementCursor(Instant settledAt, Id128 paymentId, Direction direction) {

    public static final int LIMIT_DEFAULT = 50;
    public static final int LIMIT_MAX = 500;
    private static final int ENCODED_LENGTH_MAX = 128;
    private static final String VERSION = "s1";
    /** Outcome times are after the epoch and before year 10000: anything else was not made here. */
    private static final long MICROS_YEAR_10000 = 253_402_300_800_000_000L;

    public String encode() {
        long micros = ChronoUnit.MICROS.between(Instant.EPOCH, settledAt);
        String text = VERSION + ":" + micros + ":" + paymentId + ":"
                + direction.name().charAt(0);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
    }

    /** Empty if the text is not a cursor this service produced. */
    public static Optional<StatementCursor> decode(String encoded) {
        if (encoded == null || encoded.isEmpty() || encoded.length() > ENCODED_LENGTH_MAX) {
            return Optional.empty();
        }
        try {
            String text = new String(Base64.getUrlDecoder().decode(encoded), StandardCharsets.US_ASCII);
            String[] parts = text.split(":", -1);
            if (parts.length != 4 || !parts[0].equals(VERSION) || parts[3].length() != 1) {
                return Optional.empty();
            }
            long micros = Long.parseLong(parts[1]);
            if (micros < 0 || micros >= MICROS_YEAR_10000) {
                return Optional.empty();
            }
            Instant settledAt = Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
            Id128 paymentId = Id128.parse(parts[2]);
            Direction direction = switch (parts[3]) {
                case "D" -> Direction.DEBIT;
                case "C" -> Direction.CREDIT;
                default -> null;
            };
            return direction == null
                    ? Optional.empty()
                    : Optional.of(new StatementCursor(settledAt, paymentId, direction));
        } catch (IllegalArgumentException | ArithmeticException | java.time.DateTimeException e) {
            return Optional.empty();
        }
    }
}
