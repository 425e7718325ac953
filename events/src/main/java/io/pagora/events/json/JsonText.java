package io.pagora.events.json;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * A JSON writer for the few flat shapes on the hot paths, into one growing buffer: Jackson's databind serializes each
 * message field by field through reflection, the largest cost on those paths. It writes what Jackson writes: strings
 * escaped as Jackson escapes them (quote, backslash, control characters, lone surrogates; the rest as UTF-8), instants as ISO-8601 in
 * UTC exactly as {@link Instant#toString()}. Tests hold every user to Jackson's bytes.
 */
public final class JsonText {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
    /** Instants of years 0000..9999 are written by hand; others (never on the wire in practice) by the JDK. */
    private static final int YEAR_WRITTEN_MAX = 9999;

    private static final int SECONDS_PER_DAY = 86_400;

    private byte[] buffer;
    private int length;
    private boolean fieldWritten;

    public JsonText(int capacityBytes) {
        this.buffer = new byte[Math.max(16, capacityBytes)];
    }

    public JsonText raw(char c) {
        ensure(1);
        buffer[length++] = (byte) c;
        return this;
    }

    public JsonText beginObject() {
        raw('{');
        fieldWritten = false;
        return this;
    }

    /** Opens an object as the value of field {@code name}. */
    public JsonText beginObject(String name) {
        name(name);
        return beginObject();
    }

    /** Closes an object; what follows in the enclosing object is another field. */
    public JsonText endObject() {
        raw('}');
        fieldWritten = true;
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

    public JsonText field(String name, long value) {
        name(name);
        ascii(Long.toString(value));
        return this;
    }

    public JsonText field(String name, Instant value) {
        name(name);
        if (value == null) {
            ascii("null");
        } else {
            instant(value);
        }
        return this;
    }

    /** A field's name; its value (an array, say) is written next with {@link #raw}. */
    public JsonText member(String name) {
        name(name);
        return this;
    }

    public JsonText nullField(String name) {
        name(name);
        ascii("null");
        return this;
    }

    public byte[] bytes() {
        return Arrays.copyOf(buffer, length);
    }

    /** The text written so far, without copying it first. */
    public void writeTo(OutputStream out) throws IOException {
        out.write(buffer, 0, length);
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
        ensure(text.length());
        for (int i = 0; i < text.length(); i++) {
            buffer[length++] = (byte) text.charAt(i);
        }
    }

    /**
     * A string, its plain ASCII prefix (all of it, for ids, codes and most descriptions) copied in one pass, the rest
     * escaped or encoded character by character.
     */
    private void string(String value) {
        int chars = value.length();
        ensure(chars + 2);
        buffer[length++] = '"';
        int plain = 0;
        while (plain < chars) {
            char c = value.charAt(plain);
            if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
                break;
            }
            buffer[length + plain] = (byte) c;
            plain++;
        }
        length += plain;
        if (plain < chars) {
            escaped(value, plain);
        }
        raw('"');
    }

    private void escaped(String value, int from) {
        for (int i = from; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x80) {
                if (c >= 0x20 && c != '"' && c != '\\') {
                    raw(c);
                } else {
                    escape(c);
                }
            } else if (c < 0x800) {
                ensure(2);
                buffer[length++] = (byte) (0xC0 | (c >> 6));
                buffer[length++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c)
                        && i + 1 < value.length()
                        && Character.isLowSurrogate(value.charAt(i + 1))) {
                    int codePoint = Character.toCodePoint(c, value.charAt(i + 1));
                    i++;
                    ensure(4);
                    buffer[length++] = (byte) (0xF0 | (codePoint >> 18));
                    buffer[length++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
                    buffer[length++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
                    buffer[length++] = (byte) (0x80 | (codePoint & 0x3F));
                } else {
                    // A lone surrogate has no UTF-8 form: escaped, as Jackson does, so it reads back the same.
                    unicodeEscape(c);
                }
            } else {
                ensure(3);
                buffer[length++] = (byte) (0xE0 | (c >> 12));
                buffer[length++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                buffer[length++] = (byte) (0x80 | (c & 0x3F));
            }
        }
    }

    private void escape(char c) {
        char shortForm = switch (c) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '\n' -> 'n';
            case '\r' -> 'r';
            case '\t' -> 't';
            case '\b' -> 'b';
            case '\f' -> 'f';
            default -> 0;
        };
        if (shortForm == 0) {
            unicodeEscape(c);
            return;
        }
        ensure(2);
        buffer[length++] = '\\';
        buffer[length++] = (byte) shortForm;
    }

    private void unicodeEscape(char c) {
        ensure(6);
        buffer[length++] = '\\';
        buffer[length++] = 'u';
        buffer[length++] = HEX[c >> 12];
        buffer[length++] = HEX[(c >> 8) & 0xF];
        buffer[length++] = HEX[(c >> 4) & 0xF];
        buffer[length++] = HEX[c & 0xF];
    }

    /**
     * As {@link java.time.format.DateTimeFormatter#ISO_INSTANT} writes it (Jackson's format): seconds always, a
     * fraction only if non-zero, in groups of three digits.
     */
    private void instant(Instant value) {
        long seconds = value.getEpochSecond();
        long days = Math.floorDiv(seconds, SECONDS_PER_DAY);
        int secondOfDay = (int) Math.floorMod(seconds, SECONDS_PER_DAY);
        long civil = InstantText.civilOf(days);
        long year = InstantText.year(civil);
        if (year < 0 || year > YEAR_WRITTEN_MAX) {
            string(value.toString());
            return;
        }
        ensure(32);
        buffer[length++] = '"';
        digits((int) year, 4);
        buffer[length++] = '-';
        digits(InstantText.month(civil), 2);
        buffer[length++] = '-';
        digits(InstantText.day(civil), 2);
        buffer[length++] = 'T';
        digits(secondOfDay / 3600, 2);
        buffer[length++] = ':';
        digits(secondOfDay / 60 % 60, 2);
        buffer[length++] = ':';
        digits(secondOfDay % 60, 2);
        int nanos = value.getNano();
        if (nanos > 0) {
            buffer[length++] = '.';
            if (nanos % 1_000_000 == 0) {
                digits(nanos / 1_000_000, 3);
            } else if (nanos % 1_000 == 0) {
                digits(nanos / 1_000, 6);
            } else {
                digits(nanos, 9);
            }
        }
        buffer[length++] = 'Z';
        buffer[length++] = '"';
    }

    private void digits(int value, int count) {
        for (int i = count - 1; i >= 0; i--) {
            buffer[length + i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        length += count;
    }

    private void ensure(int bytes) {
        if (length + bytes > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + bytes));
        }
    }
}
