package io.pagora.settlement.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Ids are hash keys on every service's hot path (a poll's payments, a batch's accounts): a generator's ids
 * from one millisecond, which differ only in a few middle bits, must still fill a hash table's buckets.
 */
class Id128HashTest {

    /** HashMap's bucket index for a table of {@code 2^bits}: the spread hash's low bits. */
    private static int bucket(Object key, int bits) {
        int h = key.hashCode();
        return (h ^ (h >>> 16)) & ((1 << bits) - 1);
    }

    @Test
    void idsFromOneMillisecondSpreadOverHashMapBuckets() {
        TimeOrderedIds ids = new TimeOrderedIds(Clock.fixed(Instant.parse("2026-11-23T12:00:00Z"), ZoneOffset.UTC));
        int count = 1024;
        Set<Integer> buckets = new HashSet<>();
        for (int i = 0; i < count; i++) {
            buckets.add(bucket(ids.next(), 10));
        }
        // Random placement of 1024 keys in 1024 buckets fills about 63% of them; the record's default hash
        // filled 4 and turned the bins into trees.
        assertThat(buckets.size()).isGreaterThan(count / 2);
    }

    @Test
    void equalIdsHaveEqualHashes() {
        Id128 id = new Id128(0x0123456789ABCDEFL, 0x0FEDCBA987654300L);
        assertThat(id.hashCode()).isEqualTo(new Id128(id.hi(), id.lo()).hashCode());
        assertThat(id).isEqualTo(Id128.parse(id.toString()));
    }
}
