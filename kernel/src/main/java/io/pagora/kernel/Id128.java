package io.pagora.kernel;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * An unsigned 128-bit identifier, as TigerBeetle uses for accounts and transfers.
 *
 * <p>Ordering is unsigned, most significant half first, which is also the byte order of the
 * big-endian {@link UUID} form that PostgreSQL stores and sorts.
 */
public record Id128(long hi, long lo) implements Comparable<Id128> {

    public static final Id128 ZERO = new Id128(0, 0);
    public static final Id128 MAX = new Id128(-1L, -1L);

    public static Id128 of(long lo) {
        return new Id128(0, lo);
    }

    public static Id128 fromUuid(UUID uuid) {
        return new Id128(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits());
    }

    /** Parses the 32-hex-digit form produced by {@link #toString()}, or a UUID with dashes. */
    public static Id128 parse(String text) {
        // Hand-written, without String.replace or streams: every service parses several ids per payment.
        // ASCII hex digits only.
        if (text.length() > TEXT_CHARS_MAX) {
            throw notAnId(text);
        }
        long hi = 0;
        long lo = 0;
        int digits = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '-') {
                continue;
            }
            int value = hexValue(c);
            if (value < 0 || digits == 32) {
                throw notAnId(text);
            }
            if (digits < 16) {
                hi = hi << 4 | value;
            } else {
                lo = lo << 4 | value;
            }
            digits++;
        }
        if (digits != 32) {
            throw notAnId(text);
        }
        return new Id128(hi, lo);
    }

    /** Whether the text is exactly 32 ASCII hex digits (either case, no dashes): the form ids take on the wire. */
    public static boolean isHexDigits32(String text) {
        if (text == null || text.length() != 32) {
            return false;
        }
        for (int i = 0; i < 32; i++) {
            if (hexValue(text.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** The longest text {@link #parse} reads: 32 digits and the dashes of a UUID, with room for stray ones. */
    private static final int TEXT_CHARS_MAX = 64;

    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    private static IllegalArgumentException notAnId(String text) {
        String shown = text.length() > TEXT_CHARS_MAX ? text.substring(0, TEXT_CHARS_MAX) + "…" : text;
        return new IllegalArgumentException("not a 128-bit hex id: " + shown);
    }

    public UUID toUuid() {
        return new UUID(hi, lo);
    }

    public boolean isZero() {
        return hi == 0 && lo == 0;
    }

    public boolean isMax() {
        return hi == -1L && lo == -1L;
    }

    /**
     * A mixed hash. The record's default ({@code 31 * h(hi) + h(lo)}) is poor for our ids: a generator's ids
     * within one millisecond differ only in a few middle bits of {@code lo} (they are incremented by 0x100),
     * so HashMap's low index bits would stay constant and its bins turn into trees. A 64-bit finalizer spreads
     * every bit.
     */
    @Override
    public int hashCode() {
        long h = hi * 0x9E3779B97F4A7C15L ^ lo;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return (int) h;
    }

    @Override
    public int compareTo(Id128 other) {
        int byHi = Long.compareUnsigned(hi, other.hi);
        return byHi != 0 ? byHi : Long.compareUnsigned(lo, other.lo);
    }

    @Override
    public String toString() {
        byte[] text = new byte[32];
        for (int i = 0; i < 16; i++) {
            text[i] = HEX_DIGITS[(int) (hi >>> (60 - 4 * i)) & 0xF];
            text[16 + i] = HEX_DIGITS[(int) (lo >>> (60 - 4 * i)) & 0xF];
        }
        return new String(text, StandardCharsets.US_ASCII);
    }

    private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
}
