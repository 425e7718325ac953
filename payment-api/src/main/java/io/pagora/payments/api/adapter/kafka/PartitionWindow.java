package io.pagora.payments.api.adapter.kafka;

import io.pagora.kernel.Check;
import io.pagora.payments.api.application.streams.MessageLog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One partition of the participants' messages, fetched once for every bank on it: one fetcher appends what it fetches
 * to a window of the partition's latest records, bounded in records and bytes, and each bank's read takes its own
 * records out of it, from its own position. The window holds every record of [start, end) and only moves forward:
 * a read whose position is before the window (a bank that fell behind by more than the window, or a range to deliver
 * again that aged out of it) gets {@code null} and reads on its own; one at the window's end fetches more for
 * everyone; one past it (a new window, or a bank whose saved position is ahead of the others') moves the window there.
 *
 * <p>A read answers as a read of the partition on its own did ({@link MessageLog#read}): an open read (no
 * {@code until}) returns what is there now, a range is read whole unless the read timeout passes first. A fetch made
 * by another bank's read while this one waited counts as this one's.
 *
 * <p>The window is guarded by this object, held only to copy records in or out; the fetcher by a fair lock of its
 * own, held for one fetch at a time, so a read waits behind at most the fetches queued before it.
 */
final class PartitionWindow implements AutoCloseable {

    /** Records kept at most: eight full fetches. */
    static final int RECORDS_MAX = 4_096;

    /** Bytes of records kept at most: a fetch of one partition brings about 1 MiB at most (the consumer's default). */
    static final long BYTES_MAX = 8L * 1024 * 1024;

    /** A read's rounds (each a fetch, or a wait for one) at most, beside its timeout. */
    private static final int ROUNDS_MAX = 100_000;

    private final PartitionFetcher fetcher;
    private final long readTimeoutNanos;
    private final long bytesMax;
    private final ReentrantLock fetching = new ReentrantLock(true);

    private final PartitionFetcher.Record[] ring;
    private int head;
    private int size;
    private long bytes;
    private boolean positioned;
    private long start;
    private long end;
    private long fetches;
    private boolean lastFetchEmpty;
    private boolean lastFetchFull;
    private long recordsFetched;
    private boolean closed;

    PartitionWindow(PartitionFetcher fetcher, Duration readTimeout, int recordsMax, long bytesMax) {
        Check.that(
                recordsMax >= KafkaMessageLog.RECORDS_PER_POLL,
                "a window holds at least one full fetch: %d records",
                recordsMax);
        Check.that(bytesMax >= 1, "a window holds bytes: %d", bytesMax);
        this.fetcher = fetcher;
        this.readTimeoutNanos = readTimeout.toNanos();
        this.bytesMax = bytesMax;
        this.ring = new PartitionFetcher.Record[recordsMax];
    }

    /**
     * The records keyed {@code key} in [{@code from}, {@code until}), as {@link MessageLog#read} promises them; null
     * when {@code from} is before the window (nothing was read: read on your own up to {@link #start()}).
     */
    MessageLog.Slice read(String key, long from, long until, int messagesMax) {
        Check.that(from >= 0 && from <= until, "a read starts within its range: [%d, %d)", from, until);
        long deadline = System.nanoTime() + readTimeoutNanos;
        boolean range = until != Long.MAX_VALUE;
        List<byte[]> records = new ArrayList<>();
        int count = 0;
        long next = from;
        long oldestMillis = 0;
        boolean fetchedNothing = false;
        for (int round = 0; round < ROUNDS_MAX; round++) {
            long fetchesSeen;
            synchronized (this) {
                Check.that(!closed, "the window of a closed log is not read");
                if (!positioned || next > end) {
                    if (count > 0 || next > from) {
                        // The window started over under this read (the log lost its end): what was read stands.
                        return new MessageLog.Slice(records, count, next, oldestMillis);
                    }
                    fetchesSeen = -1;
                } else if (next < start) {
                    // Evicted under this read, or behind the window from the start.
                    return count == 0 && next == from ? null : new MessageLog.Slice(records, count, next, oldestMillis);
                } else {
                    for (int i = firstAtOrAfter(next); i < size; i++) {
                        PartitionFetcher.Record record = at(i);
                        if (record.offset() >= until || count >= messagesMax) {
                            return new MessageLog.Slice(records, count, next, oldestMillis);
                        }
                        if (key.equals(record.key())) {
                            oldestMillis = records.isEmpty() ? record.timestampMillis() : oldestMillis;
                            records.add(record.value());
                            count += record.count();
                        }
                        next = record.offset() + 1;
                    }
                    // Every record before the window's end was examined.
                    next = Math.max(next, Math.min(end, until));
                    boolean done = count >= messagesMax
                            || next >= until
                            || (!range && (fetchedNothing || (count > 0 && !lastFetchFull)))
                            || System.nanoTime() >= deadline;
                    if (done) {
                        return new MessageLog.Slice(records, count, next, oldestMillis);
                    }
                    fetchesSeen = fetches;
                }
            }
            if (fetchesSeen < 0) {
                moveTo(next, deadline);
            } else {
                fetchedNothing = fetchAfter(fetchesSeen, deadline);
            }
            if (System.nanoTime() >= deadline && fetchesSeen < 0) {
                return new MessageLog.Slice(records, count, next, oldestMillis);
            }
        }
        return new MessageLog.Slice(records, count, next, oldestMillis);
    }

    /** The window's first position: a read behind it reads on its own up to here, then joins it. */
    synchronized long start() {
        return start;
    }

    /** Records fetched into this window: each one a fetch and a decompression, shared by every bank on the partition. */
    synchronized long recordsFetched() {
        return recordsFetched;
    }

    /** Records kept now, and their bytes (for tests: the bounds hold). */
    synchronized int recordsKept() {
        return size;
    }

    synchronized long bytesKept() {
        return bytes;
    }

    /** Fetches once, unless another read fetched since {@code seen}: true when that fetch found nothing. */
    private boolean fetchAfter(long seen, long deadline) {
        if (!lock(deadline)) {
            return false;
        }
        try {
            synchronized (this) {
                if (fetches != seen || !positioned) {
                    return fetches != seen && lastFetchEmpty;
                }
            }
            PartitionFetcher.Fetch fetch = fetcher.fetch();
            synchronized (this) {
                append(fetch);
            }
            return fetch.records().isEmpty();
        } finally {
            fetching.unlock();
        }
    }

    /** Starts the window over at {@code position} (past its end), unless another read moved it there already. */
    private void moveTo(long position, long deadline) {
        if (!lock(deadline)) {
            return;
        }
        try {
            synchronized (this) {
                if (positioned && position <= end) {
                    return;
                }
                clear();
                start = position;
                end = position;
                positioned = true;
            }
            fetcher.seek(position);
        } finally {
            fetching.unlock();
        }
    }

    private boolean lock(long deadline) {
        try {
            return fetching.tryLock(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to fetch messages", e);
        }
    }

    private void append(PartitionFetcher.Fetch fetch) {
        List<PartitionFetcher.Record> fetched = fetch.records();
        Check.that(fetched.size() <= ring.length, "a fetch fits the window: %d records", fetched.size());
        fetches++;
        recordsFetched += fetched.size();
        if ((!fetched.isEmpty() && fetched.getFirst().offset() < end) || fetch.next() < end) {
            // The log does not hold the window's end (a position from before the topic was made again): the window
            // starts over wherever the next read is.
            clear();
            positioned = false;
            lastFetchEmpty = false;
            return;
        }
        long previous = end - 1;
        for (PartitionFetcher.Record record : fetched) {
            Check.that(record.offset() > previous, "fetched in order: %d after %d", record.offset(), previous);
            previous = record.offset();
            while (size > 0 && (size == ring.length || bytes + length(record) > bytesMax)) {
                evictOldest();
            }
            ring[(head + size) % ring.length] = record;
            size++;
            bytes += length(record);
        }
        Check.that(fetch.next() > previous, "a fetch's next position %d is past its records", fetch.next());
        end = fetch.next();
        lastFetchEmpty = fetched.isEmpty();
        lastFetchFull = fetched.size() >= KafkaMessageLog.RECORDS_PER_POLL;
    }

    private void evictOldest() {
        PartitionFetcher.Record oldest = ring[head];
        ring[head] = null;
        head = (head + 1) % ring.length;
        size--;
        bytes -= length(oldest);
        start = oldest.offset() + 1;
    }

    private void clear() {
        while (size > 0) {
            evictOldest();
        }
        head = 0;
    }

    private PartitionFetcher.Record at(int index) {
        return ring[(head + index) % ring.length];
    }

    /** The index of the first record at or after {@code position} ({@code size} if none): offsets only grow. */
    private int firstAtOrAfter(long position) {
        int low = 0;
        int high = size;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (at(middle).offset() < position) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    private static long length(PartitionFetcher.Record record) {
        return record.value() == null ? 0 : record.value().length;
    }

    @Override
    public void close() {
        fetching.lock();
        try {
            synchronized (this) {
                closed = true;
                clear();
            }
            fetcher.close();
        } finally {
            fetching.unlock();
        }
    }
}
