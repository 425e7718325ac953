package io.pagora.payments.api.adapter.kafka;

import io.pagora.events.Topics;
import io.pagora.events.participant.MessageRecords;
import io.pagora.payments.api.application.streams.MessageLog;
import io.pagora.settlement.domain.BankId;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;

/**
 * The participants' messages as Kafka holds them: {@link Topics#PARTICIPANT_MESSAGES}, keyed by the recipient's
 * ISPB, so a bank's messages are one partition's records with its key. This is each bank's own read, for what
 * {@link SharedMessageLog}'s window of the partition no longer holds (a bank that fell behind, a range to deliver
 * again that aged out of it) and for the start of the log. Each bank being read has a consumer of its
 * own (no group: the positions are the streams'), kept assigned to the bank's partition between reads so a stream
 * that reads on from where it stopped costs one fetch and no seek; at most {@code readersMax} are kept. Beyond that
 * the least recently used reader no thread is reading with is closed; if every one is in use, the least recently
 * used is taken out of the map and closed by the thread reading with it when its read ends: a KafkaConsumer is not
 * safe for two threads, and closing one another bank's thread is reading with failed one of the two reads.
 * ParticipantStreams reads a bank under that bank's lock, so a consumer is never shared by two threads at once; the
 * map and the use counts are guarded by this object, and consumers are closed outside that lock.
 */
public final class KafkaMessageLog implements MessageLog, AutoCloseable {

    /** How long one read waits for a fetch: a read that finds nothing answers "nothing now" after this. */
    static final Duration POLL = Duration.ofMillis(50);

    static final int RECORDS_PER_POLL = 500;

    private final Map<String, Object> config;
    private final int readersMax;
    private final Duration readTimeout;
    private final int partitions = Topics.PARTITIONS;
    private final LinkedHashMap<BankId, Reader> readers = new LinkedHashMap<>(16, 0.75f, true);

    /** A bank's consumer, the threads reading with it now, and whether it left the map while in use. */
    private static final class Reader {
        final KafkaConsumer<String, byte[]> consumer;
        int users;
        boolean retired;

        Reader(KafkaConsumer<String, byte[]> consumer) {
            this.consumer = consumer;
        }
    }

    /** How long closing an evicted consumer may take (it has no group to leave: it only closes its connections). */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(1);

    private final AtomicLong recordsFetched = new AtomicLong();

    public KafkaMessageLog(Map<String, Object> kafkaProperties, int readersMax, Duration readTimeout) {
        this.readersMax = readersMax;
        this.readTimeout = readTimeout;
        this.config = consumerConfig(kafkaProperties, readTimeout);
    }

    /** The configuration of a consumer of the messages topic: no group, committed records only, whole polls. */
    static Map<String, Object> consumerConfig(Map<String, Object> kafkaProperties, Duration readTimeout) {
        Map<String, Object> config = new HashMap<>(kafkaProperties);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, RECORDS_PER_POLL);
        // The broker answers a fetch as soon as one byte is there (fetch.min.bytes 1), so a long wait adds no latency;
        // a short one (10 ms) only made idle streams poll the broker over and over.
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 500);
        config.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 1);
        config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Math.toIntExact(readTimeout.toMillis()));
        // A position the log no longer holds (aged out) reads on from the oldest record still held: the default,
        // latest, skipped every record up to the head, and a read bounded below the head would find nothing.
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return config;
    }

    @Override
    public int partitionOf(BankId bank) {
        // The producer's default partitioner for a keyed record; the topic has Topics.PARTITIONS partitions.
        return Utils.toPositive(Utils.murmur2(bank.toString().getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    @Override
    public long start(BankId bank) {
        TopicPartition partition = partition(bank);
        Reader reader = acquire(bank);
        try {
            return reader.consumer
                    .beginningOffsets(List.of(partition), readTimeout)
                    .get(partition);
        } finally {
            release(reader);
        }
    }

    @Override
    public Slice read(BankId bank, long from, long until, int messagesMax, long waitMillis) {
        Reader reader = acquire(bank);
        try {
            return read(reader.consumer, bank, from, until, messagesMax);
        } finally {
            release(reader);
        }
    }

    private Slice read(KafkaConsumer<String, byte[]> consumer, BankId bank, long from, long until, int messagesMax) {
        TopicPartition partition = partition(bank);
        if (consumer.position(partition, readTimeout) != from) {
            consumer.seek(partition, from);
        }
        String key = bank.toString();
        List<byte[]> records = new ArrayList<>();
        int count = 0;
        long next = from;
        long oldestMillis = 0;
        long deadline = System.nanoTime() + readTimeout.toNanos();
        // A range to deliver again (until bounded) is read whole; new messages are what the fetches find now: polling
        // on while records keep arriving would hold a pull until the read timeout whenever messages trickle in, and
        // every message of it would wait that long (a pull took seconds at 200 payments/s).
        boolean range = until != Long.MAX_VALUE;
        do {
            List<ConsumerRecord<String, byte[]>> polled = consumer.poll(POLL).records(partition);
            recordsFetched.addAndGet(polled.size());
            if (polled.isEmpty() && !range) {
                break;
            }
            for (ConsumerRecord<String, byte[]> record : polled) {
                if (record.offset() >= until || count >= messagesMax) {
                    consumer.seek(partition, next);
                    return new Slice(records, count, next, oldestMillis);
                }
                if (key.equals(record.key())) {
                    oldestMillis = records.isEmpty() ? Math.max(0, record.timestamp()) : oldestMillis;
                    records.add(record.value());
                    count += countOf(record);
                }
                next = record.offset() + 1;
            }
            if (!range && count > 0 && polled.size() < RECORDS_PER_POLL) {
                break; // this bank's messages found, and the fetch was not full: nothing more is waiting now
            }
        } while (next < until && count < messagesMax && System.nanoTime() < deadline);
        // A range cut short by the deadline answers next < until: the caller leases only [from, next).
        return new Slice(records, count, next, oldestMillis);
    }

    static int countOf(ConsumerRecord<String, byte[]> record) {
        Header header = record.headers().lastHeader(MessageRecords.COUNT_HEADER);
        try {
            return header == null
                    ? 1
                    : Math.max(1, Integer.parseInt(new String(header.value(), StandardCharsets.US_ASCII)));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private TopicPartition partition(BankId bank) {
        return new TopicPartition(Topics.PARTICIPANT_MESSAGES, partitionOf(bank));
    }

    /** The bank's reader, counted as in use until {@link #release}; an idle reader evicted for it is closed here. */
    private Reader acquire(BankId bank) {
        List<Reader> evicted = new ArrayList<>();
        Reader reader;
        synchronized (this) {
            reader = readers.get(bank);
            if (reader == null) {
                evict(evicted);
                reader = new Reader(newConsumer(bank));
                readers.put(bank, reader);
            }
            reader.users++;
        }
        evicted.forEach(idle -> idle.consumer.close(CLOSE_TIMEOUT));
        return reader;
    }

    /** Makes room for one more reader: the least recently used idle ones go to {@code idle}, to be closed. */
    private void evict(List<Reader> idle) {
        var entries = readers.entrySet().iterator();
        while (readers.size() >= readersMax && entries.hasNext()) {
            Reader reader = entries.next().getValue();
            if (reader.users == 0) {
                entries.remove();
                idle.add(reader);
            }
        }
        if (readers.size() >= readersMax) {
            // Every reader is in use (more banks reading at once than readersMax): the eldest leaves the map now and
            // is closed by its last user, so the bound holds again once the reads in flight end.
            Map.Entry<BankId, Reader> eldest = readers.entrySet().iterator().next();
            readers.remove(eldest.getKey());
            eldest.getValue().retired = true;
        }
    }

    private void release(Reader reader) {
        boolean close;
        synchronized (this) {
            reader.users--;
            close = reader.retired && reader.users == 0;
        }
        if (close) {
            reader.consumer.close(CLOSE_TIMEOUT);
        }
    }

    private KafkaConsumer<String, byte[]> newConsumer(BankId bank) {
        Map<String, Object> own = new HashMap<>(config);
        own.put(ConsumerConfig.CLIENT_ID_CONFIG, "payment-api-stream-" + bank);
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(own);
        consumer.assign(List.of(partition(bank)));
        return consumer;
    }

    /** Records this log's consumers have fetched, every bank's: each one a fetch and its decompression. */
    public long recordsFetched() {
        return recordsFetched.get();
    }

    /** Readers kept now (in the map), for tests. */
    synchronized int readersKept() {
        return readers.size();
    }

    @Override
    public void close() {
        List<Reader> all;
        synchronized (this) {
            all = new ArrayList<>(readers.values());
            readers.clear();
            // One in use is closed by its last user, as an evicted one.
            all.removeIf(reader -> {
                reader.retired = reader.users > 0;
                return reader.retired;
            });
        }
        all.forEach(reader -> reader.consumer.close(Duration.ofSeconds(2)));
    }
}
