package io.pagora.reporting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pagora.events.DeadLetterConvention;
import io.pagora.events.RejectionReason;
import io.pagora.events.Topics;
import io.pagora.reporting.testsupport.EventPublisher;
import io.pagora.reporting.testsupport.Payments;
import io.pagora.reporting.testsupport.Payments.Payment;
import io.pagora.reporting.testsupport.ReportingIntegrationTest;
import io.pagora.testing.Http;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Proves the projection's semantics end to end, on a real Kafka broker and a real PostgreSQL, looking
 * only through the HTTP API (and the read model's own tables for the stats invariant):
 * a payment is projected from its request and then its outcome, or from its outcome first (out of
 * order); redelivered events, in one poll or across polls, leave one row and unchanged counts; a
 * conflicting second outcome is ignored and raises the integrity alarm counter; undecodable records go
 * to the dead-letter topic with their reason while later events are still projected. After every test,
 * {@code /stats} equals a full count of the payments table (the stats row's deltas are exact).
 */
class ProjectionTest extends ReportingIntegrationTest {

    private static final Duration PROJECTED_WITHIN = Duration.ofSeconds(30);

    @Autowired
    JdbcTemplate jdbc;

    static EventPublisher publisher;

    @BeforeAll
    static void publisher(@Value("${spring.kafka.bootstrap-servers}") String bootstrapServers) {
        publisher = new EventPublisher(bootstrapServers);
    }

    @AfterAll
    static void closePublisher() {
        publisher.close();
    }

    @AfterEach
    void statsEqualTheRows() {
        // The stats row is maintained by deltas; it must equal a full count once projection is idle.
        await().atMost(PROJECTED_WITHIN).untilAsserted(() -> {
            JsonNode stats = operator().json("/stats");
            Map<String, Long> counted =
                    new HashMap<>(Map.of("ACCEPTED", 0L, "SETTLED", 0L, "REJECTED", 0L, "EXPIRED", 0L));
            jdbc.query("SELECT status, count(*) AS n FROM reporting.payments GROUP BY status", row -> {
                counted.put(row.getString("status"), row.getLong("n"));
            });
            for (Map.Entry<String, Long> count : counted.entrySet()) {
                assertThat(stats.get("counts").get(count.getKey()).asLong())
                        .as(count.getKey())
                        .isEqualTo(count.getValue());
            }
            Long settledEntries = jdbc.queryForObject("SELECT count(*) FROM reporting.statement_entries", Long.class);
            assertThat(settledEntries)
                    .as("two statement entries per settled payment")
                    .isEqualTo(2 * counted.get("SETTLED"));
            assertThat(jdbc.queryForObject(NOT_SETTLED_DIFFERENCES, Long.class))
                    .as("payments_not_settled lists exactly the REJECTED and EXPIRED payments")
                    .isZero();
            assertThat(jdbc.queryForObject(POSITION_DIFFERENCES, Long.class))
                    .as("bank_day_positions equals the positions summed over the SETTLED payments")
                    .isZero();
        });
    }

    private static final String NOT_SETTLED_DIFFERENCES = """
            SELECT count(*) FROM reporting.payments_not_settled n
            FULL JOIN (SELECT status, payment_id FROM reporting.payments WHERE status IN ('REJECTED', 'EXPIRED')) p
                USING (status, payment_id)
            WHERE n.payment_id IS NULL OR p.payment_id IS NULL
            """;

    // The positions as the indexed queries before V4 summed them from the payments, against the table kept by deltas.
    private static final String POSITION_DIFFERENCES = """
            WITH summed AS (
                SELECT bank, day, sum(sent) AS sent, sum(sent_n) AS sent_n, sum(received) AS received,
                       sum(received_n) AS received_n, sum(on_us) AS on_us, sum(on_us_n) AS on_us_n
                FROM (SELECT payer_bank_ispb AS bank, (final_at AT TIME ZONE 'UTC')::date AS day,
                             CASE WHEN payee_bank_ispb IS DISTINCT FROM payer_bank_ispb THEN amount_centavos ELSE 0 END AS sent,
                             CASE WHEN payee_bank_ispb IS DISTINCT FROM payer_bank_ispb THEN 1 ELSE 0 END AS sent_n,
                             0 AS received, 0 AS received_n,
                             CASE WHEN payee_bank_ispb = payer_bank_ispb THEN amount_centavos ELSE 0 END AS on_us,
                             CASE WHEN payee_bank_ispb = payer_bank_ispb THEN 1 ELSE 0 END AS on_us_n
                      FROM reporting.payments WHERE status = 'SETTLED' AND payer_bank_ispb IS NOT NULL
                      UNION ALL
                      SELECT payee_bank_ispb, (final_at AT TIME ZONE 'UTC')::date, 0, 0, amount_centavos, 1, 0, 0
                      FROM reporting.payments
                      WHERE status = 'SETTLED' AND payee_bank_ispb IS NOT NULL
                        AND payer_bank_ispb IS DISTINCT FROM payee_bank_ispb) settled
                GROUP BY bank, day
            )
            SELECT count(*) FROM reporting.bank_day_positions d FULL JOIN summed s ON s.bank = d.bank_ispb AND s.day = d.day
            WHERE s.bank IS NULL OR d.bank_ispb IS NULL OR (d.sent_centavos, d.sent_count, d.received_centavos,
                  d.received_count, d.on_us_centavos, d.on_us_count)
                  IS DISTINCT FROM (s.sent, s.sent_n, s.received, s.received_n, s.on_us, s.on_us_n)
            """;

    /**
     * The finalize must be a heap-only update: a new row version on the same page and no index entry. PostgreSQL makes
     * it one only if no index covers a column it changes (in its key, INCLUDE list, expression or predicate) and the
     * page has room; an index added on one of these columns would silently double the read model's write cost
     * (measured at 12,000 payments/s). The fill of a request that came after its outcome (rare) changes two indexed columns, the
     * end-to-end id (V5) and, for a return whose outcome had no link, its original (V6): lookups by them are worth its
     * index entries; nothing else it changes is indexed.
     */
    @Test
    void noIndexOfThePaymentsCoversAColumnThatFinalizingOrFillingChanges() {
        List<String> changed = List.of(
                "status", "reason", "detail", "final_at", "updated_at", "requested_at", "currency", "description");
        List<String> definitions = jdbc.queryForList("""
                SELECT pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid = 'reporting.payments'::regclass
                """, String.class);
        assertThat(definitions).hasSize(4);
        for (String definition : definitions) {
            for (String column : changed) {
                assertThat(definition).as(definition).doesNotContainPattern("\\b" + column + "\\b");
            }
        }
        assertThat(definitions.stream().filter(definition -> definition.matches(".*\\b(end_to_end_id|return_of)\\b.*")))
                .as("only the two lookup indexes, partial")
                .hasSize(2)
                .allSatisfy(definition -> assertThat(definition).contains("WHERE"));
        assertThat(jdbc.queryForObject(
                        "SELECT reloptions::text FROM pg_class WHERE oid = 'reporting.payments'::regclass",
                        String.class))
                .as("room on each page for its rows' second version")
                .contains("fillfactor=50");
    }

    @Test
    void requestedThenSettled() {
        Payment payment = Payments.any();
        publisher.publish(payment.requested());

        JsonNode accepted = awaitPayment(payment, "ACCEPTED");
        assertThat(accepted.get("payerAccountId").asString()).isEqualTo(payment.payer());
        assertThat(accepted.get("payeeAccountId").asString()).isEqualTo(payment.payee());
        assertThat(accepted.get("payerBankIspb").asString()).isEqualTo("00000001");
        assertThat(accepted.get("payeeBankIspb").asString()).isEqualTo("00000002");
        assertThat(accepted.get("amountCentavos").asLong()).isEqualTo(1_000);
        assertThat(accepted.get("currency").asString()).isEqualTo("BRL");
        assertThat(accepted.has("finalAt")).isFalse();
        assertThat(events(accepted)).containsExactly("REQUESTED");
        assertThat(Instant.parse(accepted.get("timeline").get(0).get("at").asString()))
                .isEqualTo(Payments.micros(payment.acceptedAt()));

        Instant settledAt = payment.acceptedAt().plusMillis(25).plusNanos(999);
        publisher.publish(payment.settled(settledAt));

        JsonNode settled = awaitPayment(payment, "SETTLED");
        assertThat(events(settled)).containsExactly("REQUESTED", "SETTLED");
        assertThat(Instant.parse(settled.get("timeline").get(1).get("at").asString()))
                .isEqualTo(Payments.micros(settledAt));
        assertThat(settled.has("reason")).isFalse();

        JsonNode payerStatement = bankOf(payment.payer()).json("/accounts/" + payment.payer() + "/statement");
        assertThat(payerStatement.get("entries")).hasSize(1);
        assertThat(payerStatement.get("entries").get(0).get("direction").asString())
                .isEqualTo("DEBIT");
        assertThat(payerStatement
                        .get("entries")
                        .get(0)
                        .get("signedAmountCentavos")
                        .asLong())
                .isEqualTo(-1_000);
        JsonNode payeeStatement = bankOf(payment.payee()).json("/accounts/" + payment.payee() + "/statement");
        assertThat(payeeStatement.get("entries").get(0).get("direction").asString())
                .isEqualTo("CREDIT");
        assertThat(payeeStatement
                        .get("entries")
                        .get(0)
                        .get("counterpartyAccountId")
                        .asString())
                .isEqualTo(payment.payer());
    }

    @Test
    void outcomeBeforeRequestIsProjectedAndTheRequestFillsInLater() {
        Payment payment = Payments.any();
        publisher.publish(payment.rejected(RejectionReason.INSUFFICIENT_FUNDS));

        JsonNode rejected = awaitPayment(payment, "REJECTED");
        assertThat(rejected.get("reason").asString()).isEqualTo("INSUFFICIENT_FUNDS");
        assertThat(rejected.get("detail").asString()).isEqualTo("ledger code 42");
        assertThat(rejected.has("description"))
                .as("the request is not projected yet")
                .isFalse();
        assertThat(events(rejected)).containsExactly("REQUESTED", "REJECTED");
        assertThat(rejected.get("timeline").get(1).get("reason").asString()).isEqualTo("INSUFFICIENT_FUNDS");

        publisher.publish(payment.requested());
        await().atMost(PROJECTED_WITHIN)
                .untilAsserted(() -> assertThat(bankOf(payment.payer())
                                .json("/payments/" + payment.paymentId())
                                .has("description"))
                        .isTrue());
        JsonNode complete = bankOf(payment.payer()).json("/payments/" + payment.paymentId());
        assertThat(complete.get("status").asString())
                .as("a late request never reopens a final state")
                .isEqualTo("REJECTED");
        assertThat(complete.get("endToEndId").asString()).startsWith("E2E");
        assertThat(bankOf(payment.payer())
                        .json("/accounts/" + payment.payer() + "/statement")
                        .get("entries"))
                .as("rejected payments are not movements")
                .isEmpty();
    }

    @Test
    void settledBeforeRequestWritesTheStatementOnce() {
        Payment payment = Payments.any();
        publisher.publish(payment.settled());
        awaitPayment(payment, "SETTLED");
        publisher.publish(payment.requested());
        await().atMost(PROJECTED_WITHIN)
                .untilAsserted(() -> assertThat(bankOf(payment.payer())
                                .json("/payments/" + payment.paymentId())
                                .has("currency"))
                        .isTrue());
        assertThat(bankOf(payment.payer())
                        .json("/accounts/" + payment.payer() + "/statement")
                        .get("entries"))
                .hasSize(1);
    }

    @Test
    void redeliveriesInOnePollAndAcrossPollsLeaveOneRowAndTheCountsUnchanged() {
        Payment payment = Payments.any();
        // The same events twice in one send burst (one poll, most likely), then all of them again later.
        publisher.publish(payment.requested(), payment.requested(), payment.settled(), payment.settled());
        awaitPayment(payment, "SETTLED");
        JsonNode statsBefore = operator().json("/stats");
        double requestsBefore = metric("pagora_reporting_rows_projected_total", "kind=\"requested\"");
        double outcomesBefore = metric("pagora_reporting_rows_projected_total", "kind=\"outcome\"");
        double settledLatenciesBefore = metric("pagora_reporting_settled_to_visible_seconds_count", "");
        double acceptLatenciesBefore = metric("pagora_reporting_accept_to_visible_seconds_count", "");

        publisher.publish(payment.settled(), payment.requested(), payment.settled());
        awaitPartitionsPassed(payment.payer());
        // Redeliveries make nothing visible again: only the marker's request and outcome count, and are timed.
        assertThat(metric("pagora_reporting_rows_projected_total", "kind=\"requested\""))
                .isEqualTo(requestsBefore + 1);
        assertThat(metric("pagora_reporting_rows_projected_total", "kind=\"outcome\""))
                .isEqualTo(outcomesBefore + 1);
        assertThat(metric("pagora_reporting_settled_to_visible_seconds_count", ""))
                .isEqualTo(settledLatenciesBefore + 1);
        assertThat(metric("pagora_reporting_accept_to_visible_seconds_count", ""))
                .isEqualTo(acceptLatenciesBefore + 1);

        JsonNode statsAfter = operator().json("/stats");
        assertThat(statsAfter.get("counts").get("SETTLED").asLong())
                .isEqualTo(statsBefore.get("counts").get("SETTLED").asLong() + 1 /* the marker */);
        assertThat(statsAfter.get("counts").get("ACCEPTED").asLong())
                .isEqualTo(statsBefore.get("counts").get("ACCEPTED").asLong());
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM reporting.payments WHERE payment_id = ?::uuid",
                        Long.class,
                        payment.paymentId()))
                .isEqualTo(1);
        assertThat(paymentIds(bankOf(payment.payer()).json("/accounts/" + payment.payer() + "/statement")))
                .as("one debit, the marker's is the other entry")
                .containsOnlyOnce(payment.paymentId())
                .hasSize(2);
        assertThat(paymentIds(bankOf(payment.payee()).json("/accounts/" + payment.payee() + "/statement")))
                .containsExactly(payment.paymentId());
        assertThat(metric("pagora_reporting_duplicate_events_total")).isGreaterThanOrEqualTo(4);
    }

    @Test
    void aConflictingSecondOutcomeIsIgnoredAndRaisesTheAlarm() {
        Payment payment = Payments.any();
        publisher.publish(payment.requested(), payment.settled());
        JsonNode settled = awaitPayment(payment, "SETTLED");
        double alarmsBefore = metric("pagora_reporting_conflicting_outcomes_total");
        JsonNode statsBefore = operator().json("/stats");

        publisher.publish(payment.expired(), payment.rejected(RejectionReason.RECEIVING_BANK_REFUSED));
        await().atMost(PROJECTED_WITHIN)
                .untilAsserted(() -> assertThat(metric("pagora_reporting_conflicting_outcomes_total"))
                        .isEqualTo(alarmsBefore + 2));

        JsonNode after = bankOf(payment.payer()).json("/payments/" + payment.paymentId());
        assertThat(after.get("status").asString()).as("the first outcome wins").isEqualTo("SETTLED");
        assertThat(after.get("finalAt").asString())
                .isEqualTo(settled.get("finalAt").asString());
        assertThat(after.has("reason")).isFalse();
        assertThat(operator().json("/stats").get("counts")).isEqualTo(statsBefore.get("counts"));

        // The same final state again is a no-op, not an alarm.
        publisher.publish(payment.settled());
        awaitPartitionsPassed(payment.payer());
        assertThat(metric("pagora_reporting_conflicting_outcomes_total")).isEqualTo(alarmsBefore + 2);
    }

    @Test
    void undecodableRecordsGoToTheDeadLetterTopicAndLaterEventsAreStillProjected() {
        String payer = Payments.customer(1);
        double deadBefore = metric("pagora_reporting_dead_letters_total");
        RecordMetadata garbage = publisher.publishRaw(
                Topics.PAYMENT_OUTCOMES, payer, new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef});
        RecordMetadata untyped = publisher.publishRaw(
                Topics.PAYMENTS_REQUESTED, payer, "{\"paymentId\":\"x\"}".getBytes(StandardCharsets.UTF_8));
        Payment badId = new Payment("not-a-payment-id", payer, Payments.customer(2), 5, Instant.now());
        RecordMetadata brokenRule = publisher.publishRaw(
                Topics.PAYMENTS_REQUESTED, payer, io.pagora.events.PaymentEventCodec.encode(badId.requested()));
        Payment later = Payments.between(payer, Payments.customer(2), 700);
        publisher.publish(later.requested(), later.settled());

        awaitPayment(later, "SETTLED");

        // Other tests dead-letter records too: this one's are those of its payer.
        List<ConsumerRecord<String, byte[]>> outcomesDlt =
                readAll(DeadLetterConvention.topicOf(Topics.PAYMENT_OUTCOMES), 1).stream()
                        .filter(record -> payer.equals(record.key()))
                        .toList();
        List<ConsumerRecord<String, byte[]>> requestedDlt =
                readAll(DeadLetterConvention.topicOf(Topics.PAYMENTS_REQUESTED), 2).stream()
                        .filter(record -> payer.equals(record.key()))
                        .toList();
        assertThat(outcomesDlt).hasSize(1);
        ConsumerRecord<String, byte[]> dead = outcomesDlt.getFirst();
        assertThat(dead.value()).isEqualTo(new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef});
        assertThat(dead.key()).isEqualTo(payer);
        assertThat(header(dead, DeadLetterConvention.REASON_HEADER)).contains("not a v1 payment event");
        assertThat(header(dead, "kafka_dlt-original-topic")).isEqualTo(Topics.PAYMENT_OUTCOMES);
        assertThat(original(dead)).isEqualTo(garbage.partition() + ":" + garbage.offset());
        assertThat(garbage.topic()).isEqualTo(Topics.PAYMENT_OUTCOMES);

        assertThat(requestedDlt).hasSize(2);
        assertThat(requestedDlt)
                .extracting(r -> header(r, DeadLetterConvention.REASON_HEADER))
                .anySatisfy(reason -> assertThat(reason).contains("not a v1 payment event"))
                .anySatisfy(reason -> assertThat(reason).contains("paymentId is not a payment id"));
        assertThat(requestedDlt)
                .extracting(ProjectionTest::original)
                .containsExactlyInAnyOrder(
                        untyped.partition() + ":" + untyped.offset(),
                        brokenRule.partition() + ":" + brokenRule.offset());
        await().atMost(PROJECTED_WITHIN)
                .untilAsserted(() -> assertThat(metric("pagora_reporting_dead_letters_total"))
                        .isEqualTo(deadBefore + 3));
    }

    /**
     * One record PostgreSQL refuses costs only itself: in a poll of valid events, an outcome whose
     * timestamp is beyond PostgreSQL's range is the only record dead-lettered, and every other payment
     * of the poll reaches its final state. A bank's refusal text with U+0000 (which PostgreSQL refuses in
     * text) is cleaned at the boundary and projected. Before, either record made the whole poll fail
     * and go to the dead-letter topic, its payments left ACCEPTED.
     */
    @Test
    void oneRecordPostgresRefusesIsDeadLetteredAloneAndTheRestOfThePollIsProjected() {
        String payer = Payments.customer(4);
        List<Payment> good = new ArrayList<>();
        List<io.pagora.events.PaymentEvent> events = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            Payment payment = Payments.between(payer, Payments.customer(5), 100 + i);
            good.add(payment);
            events.add(payment.requested());
            events.add(payment.settled());
        }
        Payment nul = Payments.between(payer, Payments.customer(5), 99);
        events.add(nul.requested());
        events.add(new io.pagora.events.PaymentRejected(
                nul.paymentId(),
                nul.payer(),
                nul.payee(),
                99,
                RejectionReason.RECEIVING_BANK_REFUSED,
                "conta\u0000encerrada",
                nul.acceptedAt(),
                nul.acceptedAt().plusMillis(5)));
        Payment farFuture = Payments.between(payer, Payments.customer(5), 98);
        events.add(20, farFuture.settled(Instant.parse("+300000-01-01T00:00:00Z")));
        double deadBefore = metric("pagora_reporting_dead_letters_total");
        publisher.publish(events.toArray(io.pagora.events.PaymentEvent[]::new));

        good.forEach(payment -> awaitPayment(payment, "SETTLED"));
        assertThat(awaitPayment(nul, "REJECTED").get("detail").asString()).isEqualTo("conta encerrada");
        await().atMost(PROJECTED_WITHIN)
                .untilAsserted(() -> assertThat(metric("pagora_reporting_dead_letters_total"))
                        .isEqualTo(deadBefore + 1));
        List<ConsumerRecord<String, byte[]>> dead =
                readAll(DeadLetterConvention.topicOf(Topics.PAYMENT_OUTCOMES), 1).stream()
                        .filter(record -> payer.equals(record.key()))
                        .toList();
        assertThat(dead).singleElement().satisfies(record -> {
            assertThat(new String(record.value(), StandardCharsets.UTF_8)).contains(farFuture.paymentId());
            assertThat(header(record, DeadLetterConvention.REASON_HEADER)).contains("failed alone");
        });
    }

    /**
     * Waits until everything published so far for this payer was projected: a marker payment of the same
     * payer (so on the same partitions, after those records) has both its request and its outcome projected.
     */
    private void awaitPartitionsPassed(String payer) {
        Payment marker = Payments.between(payer, Payments.customer(3), 1);
        publisher.publish(marker.requested(), marker.settled());
        awaitPayment(marker, "SETTLED");
        await().atMost(PROJECTED_WITHIN)
                .untilAsserted(() -> assertThat(bankOf(marker.payer())
                                .json("/payments/" + marker.paymentId())
                                .has("currency"))
                        .isTrue());
    }

    /** The payment as its payer's bank reads it, once it has {@code status}. */
    private JsonNode awaitPayment(Payment payment, String status) {
        List<JsonNode> seen = new ArrayList<>(1);
        await().atMost(PROJECTED_WITHIN).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            Http.Response response = bankOf(payment.payer()).get("/payments/" + payment.paymentId());
            assertThat(response.status()).as(response.body()).isEqualTo(200);
            assertThat(response.json().get("status").asString()).isEqualTo(status);
            seen.add(response.json());
        });
        return seen.getLast();
    }

    private static List<String> paymentIds(JsonNode statement) {
        List<String> ids = new ArrayList<>();
        statement.get("entries").forEach(entry -> ids.add(entry.get("paymentId").asString()));
        return ids;
    }

    private static List<String> events(JsonNode payment) {
        List<String> events = new ArrayList<>();
        payment.get("timeline").forEach(event -> events.add(event.get("event").asString()));
        return events;
    }

    /** A counter's value as Prometheus scrapes it from /actuator/prometheus (0 if not yet registered). */
    private double metric(String name) {
        return metric(name, "");
    }

    /** The sum of a metric's series whose line contains {@code label} (e.g. {@code kind="outcome"}). */
    private double metric(String name, String label) {
        String body = operator().get("/actuator/prometheus").body();
        double total = 0;
        for (String line : body.split("\n")) {
            if ((line.startsWith(name + " ") || line.startsWith(name + "{")) && line.contains(label)) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    /** Every record of a topic, read with a fresh consumer group until {@code expected} are there. */
    private List<ConsumerRecord<String, byte[]>> readAll(String topic, int expected) {
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG,
                "test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class))) {
            consumer.subscribe(List.of(topic));
            // In this thread: a consumer is used by one thread at a time.
            await().atMost(Duration.ofSeconds(30))
                    .pollInSameThread()
                    .pollInterval(Duration.ofMillis(1))
                    .until(() -> {
                        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                        return records.size() >= expected;
                    });
            // A moment more, to catch records that should not be there.
            consumer.poll(Duration.ofMillis(500)).forEach(records::add);
        }
        return records;
    }

    /** The partition and offset of the record a dead letter was made from, as its headers say ("partition:offset"). */
    private static String original(ConsumerRecord<?, ?> deadLetter) {
        int partition = ByteBuffer.wrap(deadLetter
                        .headers()
                        .lastHeader("kafka_dlt-original-partition")
                        .value())
                .getInt();
        long offset = ByteBuffer.wrap(deadLetter
                        .headers()
                        .lastHeader("kafka_dlt-original-offset")
                        .value())
                .getLong();
        return partition + ":" + offset;
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
