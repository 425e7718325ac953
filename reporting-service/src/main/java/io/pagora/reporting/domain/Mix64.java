package io.pagora.reporting.domain;

/** MurmurHash3's 64-bit finalizer: every input bit moves every output bit. One copy for the sample and the digests. */
public final class Mix64 {

    private Mix64() {}

    public static long mix(long value) {
        long h = value;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
