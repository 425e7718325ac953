package io.pagora.payments.api.adapter.kafka;

import io.pagora.events.Topics;
import io.pagora.kernel.Check;
import io.pagora.payments.api.application.streams.MessageLog;
import io.pagora.settlement.domain.BankId;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

/**
 * The participants' messages read once per partition: every bank's read goes through its partition's
 * {@link PartitionWindow}, so two banks on one partition share its fetches and their decompression; a bank behind
 * the window reads on its own ({@code own}: a consumer per bank, as before the windows) until it is back in it. An
 * open read behind the window reads on its own only up to the window's start, so it joins the window and never
 * passes it; a range (messages to deliver again) is read whole on its own.
 *
 * <p>What a bank sees is what {@link MessageLog#read} promises: its own records only (by key), in order, from its
 * position; the positions and everything built on them (leases, acknowledgements) are the streams', unchanged.
 */
public final class SharedMessageLog implements MessageLog, AutoCloseable {

    private final MessageLog own;
    private final LongSupplier ownRecordsFetched;
    private final IntFunction<PartitionWindow> windowFactory;
    private final PartitionWindow[] windows = new PartitionWindow[Topics.PARTITIONS];
    private boolean closed;

    /** Over Kafka: a window of {@link PartitionWindow#RECORDS_MAX} records and BYTES_MAX bytes per partition read. */
    public SharedMessageLog(Map<String, Object> kafkaProperties, KafkaMessageLog own, Duration readTimeout) {
        this(
                own,
                own::recordsFetched,
                partition -> new PartitionWindow(
                        new KafkaPartitionFetcher(kafkaProperties, partition, readTimeout),
                        readTimeout,
                        PartitionWindow.RECORDS_MAX,
                        PartitionWindow.BYTES_MAX));
    }

    SharedMessageLog(MessageLog own, LongSupplier ownRecordsFetched, IntFunction<PartitionWindow> windowFactory) {
        this.own = own;
        this.ownRecordsFetched = ownRecordsFetched;
        this.windowFactory = windowFactory;
    }

    @Override
    public int partitionOf(BankId bank) {
        return own.partitionOf(bank);
    }

    @Override
    public long start(BankId bank) {
        return own.start(bank);
    }

    @Override
    public Slice read(BankId bank, long from, long until, int messagesMax, long waitMillis) {
        PartitionWindow window = window(own.partitionOf(bank));
        Slice slice = window.read(bank.toString(), from, until, messagesMax);
        if (slice != null) {
            return slice;
        }
        // Behind the window, nothing read yet: an open read catches up on its own to where the window starts.
        long ownUntil = until == Long.MAX_VALUE ? window.start() : until;
        return ownUntil > from ? own.read(bank, from, ownUntil, messagesMax, waitMillis) : Slice.empty(from);
    }

    /** Records fetched from Kafka, every partition's and every bank's own reads': each one fetched and decompressed. */
    public long recordsFetched() {
        long fetched = ownRecordsFetched.getAsLong();
        synchronized (this) {
            for (PartitionWindow window : windows) {
                fetched += window == null ? 0 : window.recordsFetched();
            }
        }
        return fetched;
    }

    private synchronized PartitionWindow window(int partition) {
        Check.that(!closed, "a closed log is not read");
        PartitionWindow window = windows[partition];
        if (window == null) {
            window = windowFactory.apply(partition);
            windows[partition] = window;
        }
        return window;
    }

    /** Closes the windows' fetchers; {@code own} is closed by whoever made it. */
    @Override
    public void close() {
        PartitionWindow[] all;
        synchronized (this) {
            closed = true;
            all = windows.clone();
            Arrays.fill(windows, null);
        }
        for (PartitionWindow window : all) {
            if (window != null) {
                window.close();
            }
        }
    }
}
