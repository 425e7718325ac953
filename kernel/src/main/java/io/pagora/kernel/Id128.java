package io.pagora.kernel;

import java.util.HexFormat;
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
        String hex = text.replace("-", "");
        if (hex.length() != 32 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new IllegalArgumentException("not a 128-bit hex id: " + text);
        }
        return new Id128(Long.parseUnsignedLong(hex, 0, 16, 16), Long.parseUnsignedLong(hex, 16, 32, 16));
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
     * so HashMap's low index bits stayed constant, its bins turned into trees, and the profile of every
     * service showed {@code HashMap$TreeNode} lookups per payment. A 64-bit finalizer spreads every bit.
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
        return HexFormat.of().toHexDigits(hi) + HexFormat.of().toHexDigits(lo);
    }
}
