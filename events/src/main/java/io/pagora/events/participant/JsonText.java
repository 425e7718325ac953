package io.pagora.events.participant;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A JSON writer for the few flat shapes on the participants' hot path, into one growing buffer: Jackson's databind
 * serializes each message field by field through reflection, the largest cost on that path. Strings are escaped as
 * RFC 8259 requires (quote, backslash, control characters), the rest is written as UTF-8.
 */
final class JsonText {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private final ByteArrayOutputStream out;
    private boolean fieldWritten;

    JsonText(int capacityBytes) {
        this.out = new ByteArrayOutputStream(capacityBytes);
    }

    JsonText raw(char c) {
        out.write(c);
        return this;
    }

    JsonText beginObject() {
        out.write('{');
        fieldWritten = false;
        return this;
    }

    JsonText endObject() {
        out.write('}');
        return this;
    }

    JsonText field(String name, String value) {
        name(name);
        if (value == null) {
            ascii("null");
        } else {
            string(value);
        }
        return this;
    }

    JsonText field(String name, long value) {
        name(name);
        ascii(Long.toString(value));
        return this;
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    private void name(String name) {
        if (fieldWritten) {
            out.write(',');
        }
        fieldWritten = true;
        string(name);
        out.write(':');
    }

    private void ascii(String text) {
        for (int i = 0; i < text.length(); i++) {
            out.write(text.charAt(i));
        }
    }

    private void string(String value) {
        out.write('"');
        int plainFrom = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
                continue;
            }
            if (c >= 0x80) {
                continue; // written with its run as UTF-8 below
            }
            utf8(value, plainFrom, i);
            escape(c);
            plainFrom = i + 1;
        }
        utf8(value, plainFrom, value.length());
        out.write('"');
    }

    private void utf8(String value, int from, int to) {
        if (from >= to) {
            return;
        }
        String run = value.substring(from, to);
        out.writeBytes(run.getBytes(StandardCharsets.UTF_8));
    }

    private void escape(char c) {
        out.write('\\');
        switch (c) {
            case '"' -> out.write('"');
            case '\\' -> out.write('\\');
            case '\n' -> out.write('n');
            case '\r' -> out.write('r');
            case '\t' -> out.write('t');
            case '\b' -> out.write('b');
            case '\f' -> out.write('f');
            default -> {
                out.write('u');
                out.write('0');
                out.write('0');
                out.write(HEX[c >> 4]);
                out.write(HEX[c & 0xF]);
            }
        }
    }
}
