package io.pagora.local.chaos;

import io.pagora.events.Topics;
import io.pagora.kernel.Check;
import io.pagora.local.readside.OutcomeLog;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The chaos catalogue's poison: malformed records written straight into every Pagora topic, to every
 * partition, past payment-api's validation, the way a buggy or hostile producer would. None of them is a
 * payment: every one must be refused by the platform's own decoder ({@code PaymentEventCodec}), so a
 * consumer that isolates it loses no valid payment and creates none.
 *
 * <pre>
 *   java -jar local-runtime.jar poison [--bootstrap-servers=127.0.0.1:9092] [--send-timeout-seconds=30]
 * </pre>
 */
public final class PoisonRecords {

    /**
     * Every topic a Pagora service consumes. The dead-letter topics are left clean: nothing consumes them, and
     * what lands there is the evidence of what the services isolated ({@link OutcomeLog#deadLettered}).
     */
    public static final List<String> TOPICS =
            List.of(Topics.PAYMENTS_REQUESTED, Topics.PAYMENT_OUTCOMES, Topics.CLEARING_UNANSWERED);

    /** A large record, still under the broker's default 1 MiB message limit (so Kafka accepts it). */
    static final int LARGE_RECORD_BYTES = 512 * 1024;

    private PoisonRecords() {}

    /** One kind of malformed record; {@code value} null is a tombstone. */
    record Poison(String name, byte[] value) {}

    /** The malformed values, each a different way for a decoder to fail. */
    static List<Poison> poisons() {
        byte[] large = new byte[LARGE_RECORD_BYTES];
        Arrays.fill(large, (byte) '{');
        String requestedWithoutParties =
                "{\"type\":\"PaymentRequested\",\"paymentId\":\"0000000000000000000000000000ab00\","
                        + "\"amountCentavos\":100,\"currency\":\"BRL\"}";
        return List.of(
                new Poison("not-json", bytes("this is not a payment event")),
                new Poison("empty", new byte[0]),
                new Poison("tombstone", null),
                new Poison("truncated-json", bytes("{\"type\":\"PaymentSettled\",\"paymentId\":\"00")),
                new Poison(
                        "unknown-type",
                        bytes("{\"type\":\"PaymentRefunded\",\"paymentId\":\"0000000000000000000000000000ab00\"}")),
                new Poison("missing-fields", bytes(requestedWithoutParties)),
                new Poison(
                        "wrong-field-type",
                        bytes("{\"type\":\"PaymentExpired\",\"paymentId\":[1,2],\"amountCentavos\":\"lots\"}")),
                new Poison("nul-bytes", bytes("{\"type\":\"PaymentRejected\",\u0000\"reason\":\"\u0000\"")),
                new Poison("invalid-utf8", new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xFE}),
                new Poison("large-garbage", large));
    }

    public static void main(String[] args) throws Exception {
        PoisonRecordsOptions options = PoisonRecordsOptions.parse(args);
        int sendTimeoutSeconds = options.sendTimeoutSeconds();
        Check.that(
                sendTimeoutSeconds >= 1 && sendTimeoutSeconds <= 300,
                "--send-timeout-seconds in [1, 300]: %d",
                sendTimeoutSeconds);
        int sent = send(options.bootstrap(), sendTimeoutSeconds);
        System.out.printf(
                "poison: %d malformed records (%d kinds x %d partitions x %d topics) acknowledged by Kafka%n",
                sent, poisons().size(), Topics.PARTITIONS, TOPICS.size());
    }

    /** Sends every poison to every partition of every topic and waits for Kafka to acknowledge all of them. */
    static int send(String bootstrapServers, int sendTimeoutSeconds) throws Exception {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                LARGE_RECORD_BYTES * 2,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                sendTimeoutSeconds * 1000,
                // Kafka refuses a delivery timeout below linger + request timeout.
                ProducerConfig.LINGER_MS_CONFIG,
                0,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                sendTimeoutSeconds * 1000 / 2,
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                sendTimeoutSeconds * 1000L,
                // One request in flight, not idempotent: with the 512 KiB poison, the idempotent producer's
                // retries of split batches were seen to fail with OUT_OF_ORDER_SEQUENCE_NUMBER until the
                // delivery timeout. A poison sent twice by a retry is harmless (it is dead-lettered twice).
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                false,
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
                1);
        ensureTopics(bootstrapServers, sendTimeoutSeconds);
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String topic : TOPICS) {
                for (int partition = 0; partition < Topics.PARTITIONS; partition++) {
                    for (Poison poison : poisons()) {
                        // A key the services never use: a poison must not share a real payer's ordering.
                        byte[] key = bytes("poison-" + poison.name());
                        acks.add(producer.send(new ProducerRecord<>(topic, partition, key, poison.value())));
                    }
                }
            }
            producer.flush();
            for (Future<RecordMetadata> ack : acks) {
                ack.get(sendTimeoutSeconds, TimeUnit.SECONDS);
            }
        }
        return acks.size();
    }

    /**
     * Creates the topics that do not exist yet, with the services' partition count, and waits for their
     * leaders before the first send: left to the broker's auto-creation, the first sends race them.
     */
    private static void ensureTopics(String bootstrapServers, int timeoutSeconds) throws Exception {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                timeoutSeconds * 1000))) {
            Set<String> existing = admin.listTopics().names().get(timeoutSeconds, TimeUnit.SECONDS);
            List<NewTopic> missing = TOPICS.stream()
                    .filter(topic -> !existing.contains(topic))
                    .map(topic -> new NewTopic(topic, Topics.PARTITIONS, (short) 1))
                    .toList();
            if (!missing.isEmpty()) {
                admin.createTopics(missing).all().get(timeoutSeconds, TimeUnit.SECONDS);
            }
            // Wait until every partition has a leader: a send to a partition without one is retried blind.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            while (!allLed(admin, timeoutSeconds)) {
                Check.that(
                        System.nanoTime() < deadline, "the poison topics have no leaders after %d s", timeoutSeconds);
                Thread.sleep(100);
            }
        }
    }

    private static boolean allLed(Admin admin, int timeoutSeconds) throws Exception {
        return admin.describeTopics(TOPICS).allTopicNames().get(timeoutSeconds, TimeUnit.SECONDS).values().stream()
                .allMatch(topic -> topic.partitions().size() == Topics.PARTITIONS
                        && topic.partitions().stream().allMatch(partition -> partition.leader() != null));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
