package io.pagora.settlement.domain;

import io.pagora.kernel.Id128;

/**
 * A payment's 128-bit id: time-ordered, with its lowest byte zero.
 *
 * <pre>
 *   bits 127..80  milliseconds since the Unix epoch (48 bits: good until year 10889)
 *   bits  79..8   random, incremented within one millisecond so ids from one generator ascend
 *   bits   7..0   zero: reserved for the leg tag of derived transfer ids (see {@link LegId})
 * </pre>
 *
 * Time order keeps TigerBeetle's LSM trees append-mostly and PostgreSQL's B-trees right-leaning.
 */
public record PaymentId(Id128 value) implements Comparable<PaymentId> {

    public PaymentId {
        if ((value.lo() & 0xFF) != 0 || value.isZero()) {
            throw new IllegalArgumentException("a payment id is non-zero with its low byte zero: " + value);
        }
    }

    public static PaymentId parse(String text) {
        return new PaymentId(Id128.parse(text));
    }

    /**
     * An id derived from {@code seed}, not drawn from the clock: the first 128 bits of SHA-256 of it, its low byte
     * cleared. For what must have one id whatever retries it (a payment's report, a report's refund).
     */
    public static PaymentId derived(String seed) {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(seed.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            long hi = 0;
            long lo = 0;
            for (int i = 0; i < 8; i++) {
                hi = (hi << 8) | (digest[i] & 0xFF);
                lo = (lo << 8) | (digest[8 + i] & 0xFF);
            }
            return new PaymentId(new Id128(hi, lo & ~0xFFL));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is in every JDK", e);
        }
    }

    public long epochMillis() {
        return value.hi() >>> 16;
    }

    @Override
    public int compareTo(PaymentId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
