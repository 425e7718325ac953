package io.pagora.payments.api.application.streams;

import io.pagora.settlement.domain.BankId;
import java.util.List;

/**
 * Port: the switch's messages to one participant, an ordered log read by position (Kafka: the offsets of the
 * partition holding the bank's records). Records hold several messages each, already encoded as JSON arrays.
 */
public interface MessageLog {

    /** Where the bank's messages live; positions only compare within one. */
    int partitionOf(BankId bank);

    /** The first position still held (older messages have aged out of the log). */
    long start(BankId bank);

    /**
     * The bank's records from {@code from} (inclusive) to {@code until} (exclusive), whole, until they hold at least
     * {@code messagesMax} messages or there are no more; {@code next} is the position after the last record examined
     * (other banks' records on the way are skipped). Waits at most {@code waitMillis} for the first record.
     *
     * <p>A read may stop early (the log's read timeout: a slow fetch, a broker failing over) and return part of a
     * bounded range or none of it: then {@code next < until}, and exactly the bank's records in [{@code from},
     * {@code next}) were returned. It may also throw. A caller treats only [{@code from}, {@code next}) as read.
     */
    Slice read(BankId bank, long from, long until, int messagesMax, long waitMillis);

    /**
     * Records read: each a JSON array of messages; {@code count} messages in all; {@code oldestMillis} when the first
     * of them was written (epoch milliseconds; 0 when none was read or the log does not say).
     */
    record Slice(List<byte[]> records, int count, long next, long oldestMillis) {

        public Slice(List<byte[]> records, int count, long next) {
            this(records, count, next, 0);
        }

        public static Slice empty(long next) {
            return new Slice(List.of(), 0, next);
        }
    }
}
