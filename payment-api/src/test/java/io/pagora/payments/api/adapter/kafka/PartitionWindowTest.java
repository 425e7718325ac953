package io.pagora.payments.api.adapter.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.application.streams.MessageLog;
import io.pagora.settlement.domain.BankId;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One partition read once for every bank on it, on an in-memory partition: each bank gets exactly its own records, in
 * order, from its own position; every record is fetched once however many banks read it; the window stays within its
 * bounds, and a bank behind it reads on its own only up to the window's start, then joins it.
 */
class PartitionWindowTest {

    static final BankId A = new BankId(10_001_111);
    static final BankId B = new BankId(10_002_222);
    static final Duration READ_TIMEOUT = Duration.ofMillis(300);

    /** A partition in memory; positions may skip (transaction markers), as Kafka's do. */
    static final class Partition implements PartitionFetcher {
        final List<Record> records = Collections.synchronizedList(new ArrayList<>());
        final int batch;
        volatile long logEnd;
        long position;
        long fetched;
        final List<Long> seeks = new ArrayList<>();

        Partition(int batch) {
            this.batch = batch;
        }

        /** Appends a record of {@code bank} holding one message, its text its position; then {@code gap} markers. */
        synchronized long append(BankId bank, int gap) {
            long offset = logEnd;
            records.add(new Record(offset, bank.toString(), text(offset), 1, 1_000 + offset));
            logEnd = offset + 1 + gap;
            return offset;
        }

        @Override
        public synchronized void seek(long to) {
            seeks.add(to);
            position = to;
        }

        @Override
        public synchronized Fetch fetch() {
            List<Record> out = new ArrayList<>();
            for (Record record : records) {
                if (record.offset() >= position && out.size() < batch) {
                    out.add(record);
                }
            }
            boolean rest = out.size() == batch && out.getLast().offset() + 1 < logEnd;
            position = out.isEmpty()
                    ? Math.max(position, logEnd)
                    : rest ? out.getLast().offset() + 1 : logEnd;
            fetched += out.size();
            if (out.isEmpty()) {
                pause(); // as a consumer's poll waits a moment for records
            }
            return new Fetch(out, position);
        }

        @Override
        public void close() {}

        private static void pause() {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A bank's own reads, behind the window: this partition read directly, and the ranges asked for. */
    static final class OwnReads implements MessageLog {
        final Partition partition;
        final List<long[]> ranges = new ArrayList<>();
        long fetched;

        OwnReads(Partition partition) {
            this.partition = partition;
        }

        @Override
        public int partitionOf(BankId bank) {
            return 0;
        }

        @Override
        public long start(BankId bank) {
            return 0;
        }

        @Override
        public synchronized Slice read(BankId bank, long from, long until, int messagesMax, long waitMillis) {
            ranges.add(new long[] {from, until});
            List<byte[]> records = new ArrayList<>();
            long next = from;
            for (PartitionFetcher.Record record : List.copyOf(partition.records)) {
                if (record.offset() < from) {
                    continue;
                }
                if (record.offset() >= until || records.size() >= messagesMax) {
                    break;
                }
                fetched++;
                if (record.key().equals(bank.toString())) {
                    records.add(record.value());
                }
                next = record.offset() + 1;
            }
            return new Slice(records, records.size(), next);
        }
    }

    @Test
    void twoBanksOnOnePartitionEachGetTheirOwnInOrderFromOneFetch() {
        Partition partition = new Partition(500);
        List<Long> mine = new ArrayList<>();
        List<Long> theirs = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            mine.add(partition.append(A, i % 7 == 0 ? 1 : 0));
            theirs.add(partition.append(B, 0));
        }
        PartitionWindow window = window(partition, PartitionWindow.RECORDS_MAX, PartitionWindow.BYTES_MAX);

        MessageLog.Slice a = window.read(A.toString(), 0, Long.MAX_VALUE, 10_000);
        MessageLog.Slice b = window.read(B.toString(), 0, Long.MAX_VALUE, 10_000);

        assertThat(positions(a)).as("A's own records, in order").isEqualTo(mine);
        assertThat(positions(b)).as("B's own records, in order").isEqualTo(theirs);
        assertThat(a.next()).as("past every record examined").isEqualTo(partition.logEnd);
        assertThat(b.next()).isEqualTo(partition.logEnd);
        assertThat(a.oldestMillis()).isEqualTo(1_000 + mine.getFirst());
        assertThat(partition.fetched)
                .as("every record fetched once, for both banks")
                .isEqualTo(600);
    }

    @Test
    void aReadStopsAtItsMessagesMaxAndTheNextPicksUpWhereItStopped() {
        Partition partition = new Partition(500);
        List<Long> mine = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            mine.add(partition.append(A, 0));
            partition.append(B, 0);
        }
        PartitionWindow window = window(partition, PartitionWindow.RECORDS_MAX, PartitionWindow.BYTES_MAX);

        MessageLog.Slice first = window.read(A.toString(), 0, Long.MAX_VALUE, 20);
        MessageLog.Slice second = window.read(A.toString(), first.next(), Long.MAX_VALUE, 10_000);

        assertThat(first.count()).isEqualTo(20);
        assertThat(first.next())
                .as("the record after the bound is reached is not examined")
                .isEqualTo(mine.get(19) + 1);
        List<Long> both = new ArrayList<>(positions(first));
        both.addAll(positions(second));
        assertThat(both).isEqualTo(mine);
    }

    @Test
    void aRangeIsReadWholeAndStopsAtItsEnd() {
        Partition partition = new Partition(3);
        List<Long> mine = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            mine.add(partition.append(A, 0));
            partition.append(B, 0);
        }
        PartitionWindow window = window(partition, PartitionWindow.RECORDS_MAX, PartitionWindow.BYTES_MAX);

        MessageLog.Slice range = window.read(A.toString(), mine.get(2), mine.get(12), Integer.MAX_VALUE);

        assertThat(positions(range)).as("read whole across many small fetches").isEqualTo(mine.subList(2, 12));
        assertThat(range.next()).isEqualTo(mine.get(12));
    }

    @Test
    void anOpenReadWithNothingNewAnswersAfterOneEmptyFetchAndARangePastTheEndWaitsForItsTimeout() {
        Partition partition = new Partition(500);
        partition.append(B, 0);
        PartitionWindow window = window(partition, PartitionWindow.RECORDS_MAX, PartitionWindow.BYTES_MAX);

        long started = System.nanoTime();
        MessageLog.Slice open = window.read(A.toString(), 0, Long.MAX_VALUE, 10_000);
        Duration openTook = Duration.ofNanos(System.nanoTime() - started);
        started = System.nanoTime();
        MessageLog.Slice range = window.read(A.toString(), 0, 5, 10_000);
        Duration rangeTook = Duration.ofNanos(System.nanoTime() - started);

        assertThat(open.count()).isZero();
        assertThat(open.next()).as("past the other bank's record").isEqualTo(1);
        assertThat(openTook).as("nothing now, at once").isLessThan(READ_TIMEOUT.dividedBy(2));
        assertThat(range.next())
                .as("read in part: the log ends before the range")
                .isEqualTo(1);
        assertThat(rangeTook)
                .as("a range waits for its records up to the timeout")
                .isGreaterThanOrEqualTo(READ_TIMEOUT);
    }

    @Test
    void theWindowKeepsWithinItsBoundsInRecordsAndBytes() {
        Partition partition = new Partition(500);
        for (int i = 0; i < 3_000; i++) {
            partition.append(i % 2 == 0 ? A : B, 0);
        }
        long bytesMax = 300L * text(0).length;
        PartitionWindow byRecords = window(partition, 500, Long.MAX_VALUE);
        Partition smallFetches = new Partition(100);
        for (int i = 0; i < 3_000; i++) {
            smallFetches.append(i % 2 == 0 ? A : B, 0);
        }
        PartitionWindow byBytes = window(smallFetches, 1_000, bytesMax);

        byRecords.read(A.toString(), 0, 3_000, Integer.MAX_VALUE);
        byBytes.read(A.toString(), 0, 3_000, Integer.MAX_VALUE);

        assertThat(byRecords.recordsKept()).isEqualTo(500);
        assertThat(byRecords.start()).as("the newest records kept").isEqualTo(2_500);
        assertThat(byBytes.bytesKept()).isEqualTo(bytesMax);
        assertThat(byBytes.recordsKept()).isEqualTo(300);
        assertThat(byBytes.start()).isEqualTo(2_700);
    }

    @Test
    void aBankBehindTheWindowReadsOnItsOwnUpToItsStartThenJoinsIt() {
        Partition partition = new Partition(500);
        List<Long> mine = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            partition.append(A, 0);
            if (i % 10 == 0) {
                mine.add(partition.append(B, 0));
            }
        }
        OwnReads own = new OwnReads(partition);
        SharedMessageLog log =
                new SharedMessageLog(own, () -> own.fetched, p -> window(partition, 500, Long.MAX_VALUE));
        // A reads to the head: the window keeps only the last 500 records.
        long from = 0;
        for (int i = 0; i < 10 && from < partition.logEnd; i++) {
            from = log.read(A, from, Long.MAX_VALUE, 10_000, 0).next();
        }

        List<Long> got = new ArrayList<>();
        long position = 0;
        for (int i = 0; i < 20 && position < partition.logEnd; i++) {
            MessageLog.Slice slice = log.read(B, position, Long.MAX_VALUE, 50, 0);
            got.addAll(positions(slice));
            position = slice.next();
        }

        assertThat(got).as("every one of B's records once, in order").isEqualTo(mine);
        assertThat(own.ranges).as("B read on its own only before the window").isNotEmpty();
        assertThat(own.ranges).allSatisfy(range -> assertThat(range[1]).isLessThanOrEqualTo(partition.logEnd - 500));
        assertThat(position).isEqualTo(partition.logEnd);
    }

    @Test
    void aRangeBehindTheWindowIsReadWholeOnItsOwn() {
        Partition partition = new Partition(500);
        for (int i = 0; i < 1_000; i++) {
            partition.append(i == 3 ? B : A, 0);
        }
        OwnReads own = new OwnReads(partition);
        SharedMessageLog log =
                new SharedMessageLog(own, () -> own.fetched, p -> window(partition, 500, Long.MAX_VALUE));
        log.read(A, 0, 1_000, Integer.MAX_VALUE, 0);

        MessageLog.Slice again = log.read(B, 3, 600, Integer.MAX_VALUE, 0);

        assertThat(positions(again)).containsExactly(3L);
        assertThat(own.ranges)
                .singleElement()
                .satisfies(range -> assertThat(range).containsExactly(3, 600));
    }

    @Test
    void aBankAheadOfTheWindowMovesItThere() {
        Partition partition = new Partition(10);
        for (int i = 0; i < 100; i++) {
            partition.append(i < 50 ? A : B, 0);
        }
        PartitionWindow window = window(partition, PartitionWindow.RECORDS_MAX, PartitionWindow.BYTES_MAX);
        window.read(A.toString(), 0, 10, 10_000);

        MessageLog.Slice ahead = window.read(B.toString(), 80, Long.MAX_VALUE, 10_000);

        assertThat(partition.seeks).containsExactly(0L, 80L);
        assertThat(positions(ahead))
                .as("what one fetch found there")
                .hasSize(10)
                .startsWith(80L);
        assertThat(window.read(A.toString(), 10, Long.MAX_VALUE, 10_000))
                .as("now behind the window")
                .isNull();
    }

    /** Both banks reading at once while records keep coming: each gets its own in order, each record fetched once. */
    @Test
    void banksReadingAtOnceShareTheFetches() throws Exception {
        Partition partition = new Partition(50);
        PartitionWindow window = window(partition, PartitionWindow.RECORDS_MAX, PartitionWindow.BYTES_MAX);
        int perBank = 2_000;
        CompletableFuture<List<Long>> a = CompletableFuture.supplyAsync(() -> readAll(window, A, perBank));
        CompletableFuture<List<Long>> b = CompletableFuture.supplyAsync(() -> readAll(window, B, perBank));
        List<Long> mine = new ArrayList<>();
        List<Long> theirs = new ArrayList<>();
        for (int i = 0; i < perBank; i++) {
            mine.add(partition.append(A, i % 5 == 0 ? 1 : 0));
            theirs.add(partition.append(B, 0));
            if (i % 100 == 0) {
                Thread.sleep(1);
            }
        }

        assertThat(a.get(30, TimeUnit.SECONDS)).isEqualTo(mine);
        assertThat(b.get(30, TimeUnit.SECONDS)).isEqualTo(theirs);
        assertThat(partition.fetched).as("fetched once for both").isEqualTo(2L * perBank);
        assertThat(window.recordsFetched()).isEqualTo(2L * perBank);
    }

    private static List<Long> readAll(PartitionWindow window, BankId bank, int expected) {
        List<Long> got = new ArrayList<>();
        long position = 0;
        for (int i = 0; i < 100_000 && got.size() < expected; i++) {
            MessageLog.Slice slice = window.read(bank.toString(), position, Long.MAX_VALUE, 300);
            assertThat(slice).as("never behind a window this large").isNotNull();
            got.addAll(positions(slice));
            position = slice.next();
        }
        return got;
    }

    private static PartitionWindow window(Partition partition, int recordsMax, long bytesMax) {
        return new PartitionWindow(partition, READ_TIMEOUT, recordsMax, bytesMax);
    }

    private static byte[] text(long offset) {
        return ("[\"" + String.format("%08d", offset) + "\"]").getBytes(StandardCharsets.US_ASCII);
    }

    private static List<Long> positions(MessageLog.Slice slice) {
        List<Long> positions = new ArrayList<>();
        for (byte[] record : slice.records()) {
            String text = new String(record, StandardCharsets.US_ASCII);
            positions.add(Long.parseLong(text.substring(2, text.length() - 2)));
        }
        return positions;
    }
}
