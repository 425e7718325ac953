package io.pagora.payments.api.adapter.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.Topics;
import io.pagora.events.participant.MessageRecords;
import io.pagora.payments.api.application.streams.MessageLog;
import io.pagora.settlement.domain.BankId;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

/**
 * A bank's messages as a stream reads them from Kafka: a read returns what is there now, even while more messages
 * (the bank's and other banks' on the same partition) keep arriving, so a pull never holds its messages until the read
 * timeout; and it returns only the bank's own.
 */
@ServerBacked
class KafkaMessageLogTest {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration TRICKLE = Duration.ofSeconds(8);
    private static final int READS_MAX = 40;

    @Test
    void aReadReturnsWhatIsThereNowWhileMessagesKeepTrickling() throws Exception {
        TestKafka kafka = TestKafka.shared();
        createMessagesTopic(kafka);
        BankId bank = new BankId(77_770_001);
        BankId other = new BankId(77_770_002);
        try (KafkaMessageLog log = new KafkaMessageLog(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), 4, READ_TIMEOUT)) {
            long from = log.start(bank);
            publish(kafka, bank, "first");
            AtomicBoolean trickling = new AtomicBoolean(true);
            Thread trickle = Thread.ofVirtual().start(() -> {
                long end = System.nanoTime() + TRICKLE.toNanos();
                while (trickling.get() && System.nanoTime() < end) {
                    publish(kafka, other, "theirs");
                    publish(kafka, bank, "more");
                    sleep(20); // paces the trickle: a few messages a read, for TRICKLE
                }
            });
            try {
                // The read that finds messages must return with them.
                long started = System.nanoTime();
                MessageLog.Slice slice = readUntilFound(log, bank, from);
                Duration took = Duration.ofNanos(System.nanoTime() - started);

                assertThat(slice.count()).as("the bank's messages there now").isPositive();
                assertThat(slice.records())
                        .allSatisfy(record -> assertThat(new String(record, StandardCharsets.UTF_8))
                                .as("only the bank's own")
                                .isIn("[\"first\"]", "[\"more\"]"));
                assertThat(took)
                        .as("returned with what it found, not at the read timeout nor when the trickle stops")
                        .isLessThan(TRICKLE.dividedBy(2));
            } finally {
                trickling.set(false);
                trickle.join();
            }
        }
    }

    /**
     * More banks reading than readers kept: the reader evicted for a second bank is one the first bank's thread is
     * reading with. Closed from the second bank's thread, one of the two reads failed (a KafkaConsumer is not safe for
     * two threads: "KafkaConsumer is not safe for multi-threaded access", or the first read's next poll on a closed
     * consumer); now the first read ends normally and its reader is closed after it.
     */
    @Test
    void aReaderInUseIsNotClosedUnderItsReadWhenAnotherBankNeedsRoom() throws Exception {
        TestKafka kafka = TestKafka.shared();
        createMessagesTopic(kafka);
        BankId first = new BankId(77_770_011);
        BankId second = new BankId(77_770_012);
        Duration rangeReadTimeout = Duration.ofSeconds(3);
        try (KafkaMessageLog log = new KafkaMessageLog(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), 1, rangeReadTimeout)) {
            long firstFrom = log.start(first);
            long secondFrom = log.start(second);
            publish(kafka, first, "mine");
            publish(kafka, second, "theirs");
            // A range beyond the partition's end keeps the first bank's read polling until its deadline.
            CompletableFuture<MessageLog.Slice> firstRead =
                    CompletableFuture.supplyAsync(() -> log.read(first, firstFrom, firstFrom + 1_000_000, 10_000, 0));
            // Lets the first read take its reader and poll for a while (nothing to observe from outside) before the
            // second bank's read needs one.
            sleep(rangeReadTimeout.toMillis() / 3);

            MessageLog.Slice secondSlice = readUntilFound(log, second, secondFrom);
            MessageLog.Slice firstSlice =
                    firstRead.get(rangeReadTimeout.multipliedBy(3).toMillis(), TimeUnit.MILLISECONDS);

            assertThat(secondSlice.count())
                    .as("the second bank's read, made while the first's reader was in use")
                    .isPositive();
            assertThat(firstSlice.count())
                    .as("the first bank's read, its reader evicted under it")
                    .isPositive();
            assertThat(log.readersKept())
                    .as("the bound holds once the reads in flight end")
                    .isEqualTo(1);
            assertThat(readUntilFound(log, first, firstFrom).count())
                    .as("the first bank reads again with a new reader")
                    .isPositive();
        }
    }

    /** Reads as a stream pulls: a read that finds nothing yet (a new consumer's first fetch) is made again. */
    private static MessageLog.Slice readUntilFound(KafkaMessageLog log, BankId bank, long from) {
        MessageLog.Slice slice;
        int reads = 0;
        do {
            slice = log.read(bank, from, Long.MAX_VALUE, 10_000, 0);
        } while (slice.count() == 0 && ++reads < READS_MAX);
        return slice;
    }

    private static void publish(TestKafka kafka, BankId bank, String text) {
        kafka.publishRaw(
                Topics.PARTICIPANT_MESSAGES,
                bank.toString(),
                ("[\"" + text + "\"]").getBytes(StandardCharsets.UTF_8),
                Map.of(MessageRecords.COUNT_HEADER, "1"));
    }

    private static void createMessagesTopic(TestKafka kafka) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            Set<String> existing = admin.listTopics().names().get();
            if (!existing.contains(Topics.PARTICIPANT_MESSAGES)) {
                admin.createTopics(List.of(new NewTopic(Topics.PARTICIPANT_MESSAGES, Topics.PARTITIONS, (short) 1)))
                        .all()
                        .get();
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
