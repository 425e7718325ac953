package io.pagora.events.participant;

import io.pagora.kernel.Check;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;

/**
 * A JSON writer for the few fixed shapes on hot paths (the participants' messages, payment-api's batch answer), into
 * one growing buffer: Jackson's databind serializes each object field by field through reflection, the largest cost
 * on those paths. Strings are escaped as Jackson escapes them (quote, backslash, control characters, and a surrogate
 * without its pair as {@code \}{@code uXXXX}), the rest is encoded as UTF-8 here, char by char. Each user holds its
 * bytes to Jackson's in a test.
 */
public final class JsonText {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
    /** The most bytes one char of a string takes: an escape, {@code \}{@code u} and four hex digits. */
    private static final int CHAR_BYTES_MAX = 6;
    /** 0000-01-01T00:00:00Z: from here to {@link #YEAR_10000_SECONDS}, ISO-8601 years are 4 digits, no sign. */
    private static final long YEAR_0_SECONDS = -62_167_219_200L;
    /** 10000-01-01T00:00:00Z. */
    private static final long YEAR_10000_SECONDS = 253_402_300_800L;
    /** {@code yyyy-MM-ddTHH:mm:ss}. */
    private static final int SECOND_TEXT_BYTES = 19;
    /** The most bytes an instant takes in its fast path: {@code "9999-12-31T23:59:59.999999999Z"}. */
    private static final int INSTANT_BYTES_MAX = 32;
    /** The most bytes a long takes as decimal text: 19 digits and a sign. */
    private static final int LONG_BYTES_MAX = 20;

    /** The last instant's second and its text, {@code yyyy-MM-ddTHH:mm:ss}: a batch's instants mostly share one. */
    private final byte[] secondText = new byte[SECOND_TEXT_BYTES];

    private long secondCached = Long.MIN_VALUE;
    private byte[] buffer;
    private int size;
    private boolean fieldWritten;

    public JsonText(int capacityBytes) {
        Check.that(capacityBytes > 0, "a JSON buffer has room for something: %d", capacityBytes);
        this.buffer = new byte[capacityBytes];
    }

    public JsonText raw(char c) {
        Check.that(c < 0x80, "raw JSON is ASCII punctuation");
        room(1);
        buffer[size++] = (byte) c;
        return this;
    }

    public JsonText beginObject() {
        raw('{');
        fieldWritten = false;
        return this;
    }

    /** Ends an object: in an enclosing object, the member it was the value of has been written. */
    public JsonText endObject() {
        raw('}');
        fieldWritten = true;
        return this;
    }

    /** A member's name, its value (an object or an array) written next by the caller. */
    public JsonText member(String name) {
        name(name);
        return this;
    }

    public JsonText field(String name, String value) {
        name(name);
        if (value == null) {
            ascii("null");
        } else {
            string(value);
        }
        return this;
    }

    /** An instant as ISO-8601 text, as Jackson writes it by default; null as null. */
    public JsonText field(String name, Instant value) {
        name(name);
        if (value == null) {
            ascii("null");
        } else {
            instant(value);
        }
        return this;
    }

    public JsonText field(String name, long value) {
        name(name);
        number(value);
        return this;
    }

    public byte[] bytes() {
        return Arrays.copyOf(buffer, size);
    }

    /** The text written so far, without copying it first. */
    public void writeTo(OutputStream out) throws IOException {
        out.write(buffer, 0, size);
    }

    private void name(String name) {
        if (fieldWritten) {
            raw(',');
        }
        fieldWritten = true;
        string(name);
        raw(':');
    }

    private void ascii(String text) {
        room(text.length());
        for (int i = 0; i < text.length(); i++) {
            buffer[size++] = (byte) text.charAt(i);
        }
    }

    private void number(long value) {
        if (value == Long.MIN_VALUE) {
            ascii(Long.toString(value)); // its magnitude is no long
            return;
        }
        room(LONG_BYTES_MAX);
        if (value < 0) {
            buffer[size++] = '-';
            value = -value;
        }
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        for (int at = size + digits - 1; at >= size; at--) {
            buffer[at] = (byte) ('0' + value % 10);
            value /= 10;
        }
        size += digits;
    }

    private void string(String value) {
        int length = value.length();
        room(Math.addExact(2, Math.multiplyExact(length, CHAR_BYTES_MAX)));
        byte[] out = buffer;
        int at = size;
        out[at++] = '"';
        int i = 0;
        while (i < length) { // plain ASCII, the common case, in a loop of its own the JIT keeps tight
            char c = value.charAt(i);
            if (c >= 0x80 || c < 0x20 || c == '"' || c == '\\') {
                break;
            }
            out[at + i] = (byte) c;
            i++;
        }
        at += i;
        for (; i < length; i++) {
            char c = value.charAt(i);
            if (c < 0x80) {
                if (c >= 0x20 && c != '"' && c != '\\') {
                    out[at++] = (byte) c;
                } else {
                    at = escape(out, at, c);
                }
            } else if (c < 0x800) {
                out[at++] = (byte) (0xC0 | c >> 6);
                out[at++] = (byte) (0x80 | c & 0x3F);
            } else if (!Character.isSurrogate(c)) {
                out[at++] = (byte) (0xE0 | c >> 12);
                out[at++] = (byte) (0x80 | c >> 6 & 0x3F);
                out[at++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < length
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                int codePoint = Character.toCodePoint(c, value.charAt(++i));
                out[at++] = (byte) (0xF0 | codePoint >> 18);
                out[at++] = (byte) (0x80 | codePoint >> 12 & 0x3F);
                out[at++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
                out[at++] = (byte) (0x80 | codePoint & 0x3F);
            } else {
                at = unicodeEscape(out, at, c); // no UTF-8 for half a pair
            }
        }
        out[at++] = '"';
        size = at;
    }

    /**
     * An instant as {@link DateTimeFormatter#ISO_INSTANT} writes it (as Jackson does): seconds always, a fraction of 3,
     * 6 or 9 digits when there is one; years outside 0 to 9999 through the formatter itself.
     */
    private void instant(Instant value) {
        long second = value.getEpochSecond();
        if (second < YEAR_0_SECONDS || second >= YEAR_10000_SECONDS) {
            string(DateTimeFormatter.ISO_INSTANT.format(value));
            return;
        }
        room(INSTANT_BYTES_MAX);
        buffer[size++] = '"';
        if (second != secondCached) {
            int from = size;
            LocalDateTime time = LocalDateTime.ofEpochSecond(second, 0, ZoneOffset.UTC);
            digits(time.getYear(), 4);
            buffer[size++] = '-';
            digits(time.getMonthValue(), 2);
            buffer[size++] = '-';
            digits(time.getDayOfMonth(), 2);
            buffer[size++] = 'T';
            digits(time.getHour(), 2);
            buffer[size++] = ':';
            digits(time.getMinute(), 2);
            buffer[size++] = ':';
            digits(time.getSecond(), 2);
            System.arraycopy(buffer, from, secondText, 0, SECOND_TEXT_BYTES);
            secondCached = second;
        } else {
            System.arraycopy(secondText, 0, buffer, size, SECOND_TEXT_BYTES);
            size += SECOND_TEXT_BYTES;
        }
        int nano = value.getNano();
        if (nano > 0) {
            buffer[size++] = '.';
            if (nano % 1_000_000 == 0) {
                digits(nano / 1_000_000, 3);
            } else if (nano % 1_000 == 0) {
                digits(nano / 1_000, 6);
            } else {
                digits(nano, 9);
            }
        }
        buffer[size++] = 'Z';
        buffer[size++] = '"';
    }

    /** {@code value}, not negative, in exactly {@code count} decimal digits (room already made). */
    private void digits(int value, int count) {
        for (int at = size + count - 1; at >= size; at--) {
            buffer[at] = (byte) ('0' + value % 10);
            value /= 10;
        }
        size += count;
    }

    private static int escape(byte[] out, int at, char c) {
        byte letter = switch (c) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '\n' -> 'n';
            case '\r' -> 'r';
            case '\t' -> 't';
            case '\b' -> 'b';
            case '\f' -> 'f';
            default -> 0;
        };
        if (letter == 0) {
            return unicodeEscape(out, at, c);
        }
        out[at++] = '\\';
        out[at++] = letter;
        return at;
    }

    private static int unicodeEscape(byte[] out, int at, char c) {
        out[at++] = '\\';
        out[at++] = 'u';
        out[at++] = HEX[c >> 12];
        out[at++] = HEX[c >> 8 & 0xF];
        out[at++] = HEX[c >> 4 & 0xF];
        out[at++] = HEX[c & 0xF];
        return at;
    }

    /** Room for {@code bytes} more, the buffer doubled (at least) when full. */
    private void room(int bytes) {
        if (buffer.length - size < bytes) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + bytes));
        }
    }
}
