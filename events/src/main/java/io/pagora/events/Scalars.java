package io.pagora.events;

import io.pagora.events.json.InstantText;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.Locale;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * One field's value read as Jackson's databind reads it by default for the events' types (its deserializers for
 * {@code String}, {@code long}, {@link Instant} and enums): the wire's own form first and fast, then the other forms
 * databind accepts, refusing what it refuses, every refusal an {@link IllegalArgumentException}.
 */
final class Scalars {

    static final String NOT_AN_EVENT = "not a v1 payment event: ";

    /** Databind's formatter for instants that are not in the wire's canonical form. */
    private static final DateTimeFormatter INSTANT_LENIENT = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .appendInstant()
            .toFormatter(Locale.ROOT);
    /** Exponents beyond which databind reads a decimal instant as the epoch (no low-order seconds left). */
    private static final int DECIMAL_SCALE_MIN = -63;

    private Scalars() {}

    /** A string, null, or another scalar's text; an object or an array is refused. */
    static String string(JsonParser parser) {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_STRING) {
            return parser.getString();
        }
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        if (token.isScalarValue()) {
            return parser.getValueAsString();
        }
        throw new IllegalArgumentException(NOT_AN_EVENT + "a string field holds " + token);
    }

    /** A long that may not be null: a number (a fraction truncated), or a string holding an integer. */
    static long primitiveLong(JsonParser parser, String name) {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NUMBER_INT) {
            return parser.getLongValue();
        }
        if (token == JsonToken.VALUE_NUMBER_FLOAT) {
            return parser.getValueAsLong();
        }
        if (token == JsonToken.VALUE_STRING) {
            String text = parser.getString().trim();
            if (!text.isEmpty() && !"null".equals(text)) {
                try {
                    return Long.parseLong(text);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(NOT_AN_EVENT + name + " is not a long: " + text, e);
                }
            }
        }
        throw new IllegalArgumentException(NOT_AN_EVENT + name + " is a long, not " + token);
    }

    static Instant instant(JsonParser parser) {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_STRING) {
            Instant canonical = InstantText.parseCanonical(
                    parser.getStringCharacters(), parser.getStringOffset(), parser.getStringLength());
            return canonical != null ? canonical : lenientInstant(parser.getString());
        }
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        if (token == JsonToken.VALUE_NUMBER_INT) {
            return Instant.ofEpochSecond(parser.getLongValue());
        }
        if (token == JsonToken.VALUE_NUMBER_FLOAT) {
            return decimalSeconds(parser.getDecimalValue());
        }
        throw new IllegalArgumentException(NOT_AN_EVENT + "an instant is a string or a number, not " + token);
    }

    /**
     * An instant in a form other than the wire's: blank is null, digits are epoch seconds (with a fraction), and
     * otherwise ISO-8601 in any case, with an offset or Z (a zero offset also as {@code +0000} or {@code +00}).
     */
    private static Instant lenientInstant(String text) {
        String trimmed = text.trim();
        if (trimmed.isEmpty()) {
            return null;
        }
        int periods = periodsOfNumber(trimmed);
        try {
            if (periods == 0) {
                return Instant.ofEpochSecond(Long.parseLong(trimmed));
            }
            if (periods == 1) {
                return decimalSeconds(new BigDecimal(trimmed));
            }
        } catch (NumberFormatException e) {
            // not a number after all: parsed as a date below, which refuses it
        }
        try {
            return Instant.from(INSTANT_LENIENT.parse(zeroOffsetAsZ(trimmed)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(NOT_AN_EVENT + "not an instant: " + trimmed, e);
        }
    }

    /** Databind reads a zero offset written without a colon or minutes ({@code +0000}, {@code +00}) as Z. */
    private static String zeroOffsetAsZ(String text) {
        int plus = text.lastIndexOf('+');
        if (plus < 0) {
            return text;
        }
        String offset = text.substring(plus + 1);
        if (offset.equals("00") || offset.equals("0000") || offset.equals("00:00")) {
            return text.substring(0, plus) + 'Z';
        }
        return text;
    }

    /** How many periods a text of digits (with a sign) holds, or -1 if it holds anything else. */
    private static int periodsOfNumber(String text) {
        int periods = 0;
        int from = text.charAt(0) == '-' || text.charAt(0) == '+' ? 1 : 0;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '.') {
                periods++;
            } else if (c < '0' || c > '9') {
                return -1;
            }
        }
        return periods;
    }

    /** Epoch seconds with a fraction, split as databind splits them. */
    private static Instant decimalSeconds(BigDecimal seconds) {
        BigDecimal nanoseconds = seconds.scaleByPowerOfTen(9);
        if (nanoseconds.precision() - nanoseconds.scale() <= 0 || seconds.scale() < DECIMAL_SCALE_MIN) {
            return Instant.ofEpochSecond(0, 0);
        }
        long wholeSeconds = seconds.longValue();
        int nanos = nanoseconds
                .subtract(BigDecimal.valueOf(wholeSeconds).scaleByPowerOfTen(9))
                .intValue();
        return Instant.ofEpochSecond(wholeSeconds, nanos);
    }

    /**
     * The ordinal of the enum constant a value names, -1 for null: its exact name (trimmed, if that matches), or
     * its ordinal as a number or as digits without a leading zero.
     */
    static int enumIndex(JsonParser parser, Enum<?>[] constants, String type) {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NULL) {
            return -1;
        }
        if (token == JsonToken.VALUE_NUMBER_INT) {
            int index = parser.getIntValue();
            if (index >= 0 && index < constants.length) {
                return index;
            }
            throw new IllegalArgumentException(NOT_AN_EVENT + "no " + type + " has index " + index);
        }
        if (token != JsonToken.VALUE_STRING) {
            throw new IllegalArgumentException(NOT_AN_EVENT + "a " + type + " is a string, not " + token);
        }
        String text = parser.getString();
        int exact = ordinalOf(constants, text);
        if (exact >= 0) {
            return exact;
        }
        String name = text.trim();
        int trimmed = ordinalOf(constants, name);
        if (trimmed >= 0) {
            return trimmed;
        }
        boolean digitFirst = !name.isEmpty() && name.charAt(0) >= '0' && name.charAt(0) <= '9';
        if (digitFirst && !(name.charAt(0) == '0' && name.length() > 1)) {
            try {
                int index = Integer.parseInt(name);
                if (index < constants.length) {
                    return index;
                }
            } catch (NumberFormatException e) {
                // not an index either: refused below
            }
        }
        throw new IllegalArgumentException(NOT_AN_EVENT + "no " + type + " is named '" + text + "'");
    }

    private static int ordinalOf(Enum<?>[] constants, String name) {
        for (int i = 0; i < constants.length; i++) {
            if (constants[i].name().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
