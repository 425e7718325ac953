package io.pagora.payments.api.adapter.kafka;

import java.util.List;

/**
 * Fetches one partition of the participants' messages in order, for a {@link PartitionWindow}: a Kafka consumer
 * assigned to it, or a fake in tests. Used by one thread at a time (the window's fetch lock).
 */
interface PartitionFetcher extends AutoCloseable {

    /** The next fetch starts at {@code position}. */
    void seek(long position);

    /**
     * What the partition holds from the position on, in order and at most {@link KafkaMessageLog#RECORDS_PER_POLL}
     * records, or none if nothing came within a short wait; {@code next} is the position after them (past any
     * transaction markers the fetch stepped over).
     */
    Fetch fetch();

    @Override
    void close();

    /** One record: its position, its key (the recipient's ISPB), its value, how many messages it holds. */
    record Record(long offset, String key, byte[] value, int count, long timestampMillis) {}

    /** A fetch's records and the position after them. */
    record Fetch(List<Record> records, long next) {}
}
