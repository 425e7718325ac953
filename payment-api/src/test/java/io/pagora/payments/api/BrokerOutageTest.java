package io.pagora.payments.api;

import static io.pagora.payments.api.PaymentValidationTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.testsupport.RequestedEvents.Event;
import io.pagora.payments.api.testsupport.SecondInstance;
import io.pagora.payments.api.testsupport.SecondInstanceTest;
import io.pagora.testing.Http;
import io.pagora.testing.ServerBacked;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.ProducerFactory;

/**
 * Proves what happens when Kafka cannot take a payment, with two API instances on one database:
 * a healthy one, and one whose broker address is a closed port (short, bounded producer timeouts).
 * <ul>
 *   <li>the broken instance answers 503 broker-unavailable (with Retry-After) within its bound, for a
 *       single payment and for a batch, and nothing reaches Kafka;
 *   <li>its idempotency key was stored with the payment id before the send (the "crash between insert
 *       and ack" state); retrying the same key and body on the other instance answers 202 with exactly
 *       that payment id and acceptedAt and publishes it: the retry completes the payment, across
 *       instances, and can never make it two payments.
 *   <li>an instance whose acknowledgements arrive after its wait (the records are written; only the
 *       answers are late, as on a congested network) answers 503 {@code outcome-unknown}, never a refusal —
 *       the broker does hold those payments, and a client that took them for refused and paid again under a
 *       new key would pay twice; its producer's delivery timeout is its wait, whatever {@code spring.kafka.*}
 *       says (10 s configured against a 2 s wait), so it never delivers a record after answering for it;
 *       the same keys then answer the same payments.
 *   <li>a replay of such a payment that the broker cannot take (the broken instance, or an instance that refuses to
 *       send some records) is UNKNOWN / 503 outcome-unknown, never REJECTED "nothing was published": its first
 *       attempt is in the broker and will settle, and a client told REJECTED would pay again under a new key.
 * </ul>
 */
@ServerBacked
class BrokerOutageTest extends SecondInstanceTest {

    /** The broken instance's whole budget: max.block.ms 1 s + ack timeout 2 s, with slack for a slow machine. */
    static final Duration OUTAGE_ANSWER_MAX = Duration.ofSeconds(8);

    @Override
    protected int bankIspb() {
        return 41;
    }

    @Autowired
    JdbcTemplate jdbc;

    Http broken;
    ConfigurableApplicationContext brokenInstance;
    Http late;
    ConfigurableApplicationContext lateInstance;
    Http selective;
    ConfigurableApplicationContext selectiveInstance;

    @BeforeAll
    void setUp() {

        brokenInstance = SecondInstance.start(
                database,
                context -> {},
                "--spring.kafka.bootstrap-servers=127.0.0.1:" + closedPort(),
                "--spring.kafka.admin.auto-create=false",
                "--spring.kafka.producer.properties.max.block.ms=1000",
                "--spring.kafka.producer.properties.request.timeout.ms=1000",
                "--pagora.payments.kafka-ack-timeout=2s");
        broken = SecondInstance.http(brokenInstance, bankIdentity());
        lateInstance = SecondInstance.start(
                database,
                context -> context.getBeanFactory()
                        .registerSingleton("lateAcknowledgements", (DefaultKafkaProducerFactoryCustomizer)
                                factory -> factory.addPostProcessor(LateAcknowledgements::wrap)),
                "--spring.kafka.bootstrap-servers=" + kafkaBootstrapServers(),
                "--spring.kafka.producer.properties.request.timeout.ms=1000",
                "--spring.kafka.producer.properties.delivery.timeout.ms=10000",
                "--pagora.payments.kafka-ack-timeout=2s");
        late = SecondInstance.http(lateInstance, bankIdentity());
        selectiveInstance = SecondInstance.start(
                database,
                context -> context.getBeanFactory()
                        .registerSingleton("refusedSends", (DefaultKafkaProducerFactoryCustomizer)
                                factory -> factory.addPostProcessor(RefusedSends::wrap)),
                "--spring.kafka.bootstrap-servers=" + kafkaBootstrapServers(),
                "--spring.kafka.producer.properties.request.timeout.ms=1000",
                "--pagora.payments.kafka-ack-timeout=2s");
        selective = SecondInstance.http(selectiveInstance, bankIdentity());
    }

    @AfterAll
    void tearDown() {
        if (brokenInstance != null) {
            brokenInstance.close();
        }
        if (lateInstance != null) {
            lateInstance.close();
        }
        if (selectiveInstance != null) {
            selectiveInstance.close();
        }
    }

    @Test
    void brokerDownAnswers503AndTheSameKeyLaterCompletesTheSamePayment() {
        String key = "outage-" + UUID.randomUUID();
        Map<String, Object> body = Http.payment(payer, payee, 9_900);
        Map<TopicPartition, Long> mark = events.mark();

        long started = System.nanoTime();
        Http.Response refused = broken.post("/payments", body, "Idempotency-Key", key);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertProblem(refused, 503, "broker-unavailable");
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        assertThat(refused.header("Location")).isNull();
        assertThat(took).as("bounded wait").isLessThan(OUTAGE_ANSWER_MAX);
        assertThat(events.since(mark)).as("nothing reached Kafka").isEmpty();

        // The key row was written before the send: it already names the payment.
        Map<String, Object> row = jdbc.queryForMap(
                "SELECT payment_id, accepted_at FROM payment_api.idempotency_keys WHERE idempotency_key = ?", key);
        String storedId = Id128.fromUuid((UUID) row.get("payment_id")).toString();
        Instant storedAcceptedAt = jdbc.queryForObject(
                        "SELECT accepted_at FROM payment_api.idempotency_keys WHERE idempotency_key = ?",
                        OffsetDateTime.class,
                        key)
                .toInstant();

        Http.Response retried = healthy.post("/payments", body, "Idempotency-Key", key);

        assertThat(retried.status()).as("%s", retried).isEqualTo(202);
        assertThat(retried.json().path("paymentId").asString()).isEqualTo(storedId);
        assertThat(retried.header("Idempotent-Replayed")).isEqualTo("true");
        List<Event> published = events.since(mark);
        assertThat(published).hasSize(1);
        assertThat(published.getFirst().payment().paymentId()).isEqualTo(storedId);
        assertThat(published.getFirst().payment().acceptedAt()).isEqualTo(storedAcceptedAt);
        assertThat(published.getFirst().key()).isEqualTo(payer);
    }

    @Test
    void brokerDownFailsAWholeBatchWith503WithinTheBound() {
        List<Object> items = twoItems();
        Map<TopicPartition, Long> mark = events.mark();
        long started = System.nanoTime();

        Http.Response refused = broken.post("/payments/batch", Map.of("payments", items));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(OUTAGE_ANSWER_MAX);
        assertProblem(refused, 503, "broker-unavailable");
        assertThat(events.since(mark)).isEmpty();

        Http.Response retried = healthy.post("/payments/batch", Map.of("payments", items));
        assertThat(retried.json().path("replayedCount").asInt())
                .as("%s", retried)
                .isEqualTo(2);
        assertThat(events.since(mark)).hasSize(2);
    }

    @Test
    void aPaymentTheBrokerAcknowledgesTooLateIsUnknownNeverRefused() {
        String singleKey = "unconfirmed-" + UUID.randomUUID();
        Map<String, Object> single = Http.payment(payer, payee, 4_300);
        List<Object> items = twoItems();
        Map<TopicPartition, Long> mark = events.mark();

        Http.Response one = late.post("/payments", single, "Idempotency-Key", singleKey);
        Http.Response batch = late.post("/payments/batch", Map.of("payments", items));

        assertProblem(one, 503, "outcome-unknown");
        assertThat(one.header("Retry-After")).isNotNull();
        assertProblem(batch, 503, "outcome-unknown");
        assertThat(events.since(mark))
                .as("the broker holds what the API could not confirm")
                .hasSize(3);
        assertThat(lateInstance
                        .getBean(ProducerFactory.class)
                        .getConfigurationProperties()
                        .get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG))
                .as("delivery.timeout.ms = kafka-ack-timeout")
                .isEqualTo(2_000);

        Http.Response retried = healthy.post("/payments", single, "Idempotency-Key", singleKey);
        assertThat(retried.status()).as("%s", retried).isEqualTo(202);
        Http.Response retriedBatch = healthy.post("/payments/batch", Map.of("payments", items));
        assertThat(retriedBatch.json().path("replayedCount").asInt())
                .as("%s", retriedBatch)
                .isEqualTo(2);
        assertThat(events.since(mark).stream()
                        .map(event -> event.payment().paymentId())
                        .distinct())
                .as("the same three payments")
                .hasSize(3);
    }

    /**
     * The first attempt was written by the broker but not confirmed (UNKNOWN); the client replays it while the broker
     * is away. The replay cannot be sent, but the payment may settle from the first attempt: it is UNKNOWN (503
     * outcome-unknown, retry with the same key), never "nothing was published", or the client would pay again under a
     * new key. A batch whose items include such a replay is answered alike, even when another item of it is new.
     */
    @Test
    void aReplayTheBrokerCannotTakeIsUnknownNeverRefused() {
        String key = "replay-" + UUID.randomUUID();
        Map<String, Object> single = Http.payment(payer, payee, 7_700);
        List<Object> items = twoItems();
        Map<TopicPartition, Long> mark = events.mark();
        assertProblem(late.post("/payments", single, "Idempotency-Key", key), 503, "outcome-unknown");
        assertProblem(late.post("/payments/batch", Map.of("payments", items)), 503, "outcome-unknown");
        assertThat(events.since(mark))
                .as("the first attempts are in the broker: they will settle")
                .hasSize(3);

        Http.Response replay = broken.post("/payments", single, "Idempotency-Key", key);
        Http.Response batchReplay = broken.post(
                "/payments/batch",
                Map.of(
                        "payments",
                        List.of(
                                items.getFirst(),
                                Map.of(
                                        "idempotencyKey",
                                        "b3-" + UUID.randomUUID(),
                                        "payerAccountId",
                                        payer,
                                        "payeeAccountId",
                                        payee,
                                        "amountCentavos",
                                        3))));

        assertProblem(replay, 503, "outcome-unknown");
        assertThat(replay.header("Retry-After")).isNotNull();
        assertThat(replay.json().path("detail").asString()).contains("same Idempotency-Key");
        assertProblem(batchReplay, 503, "outcome-unknown");
        assertThat(events.since(mark)).as("nothing more reached Kafka").hasSize(3);
    }

    /**
     * The scenario: batch 1 leaves item k UNKNOWN (the broker did write it); the client resends during
     * broker trouble, and in the resent batch another item is acknowledged while item k, now a replay, cannot be
     * sent. Item k is UNKNOWN in the 200 answer, never REJECTED "nothing was published".
     */
    @Test
    void aReplayedItemTheBrokerCannotTakeIsUnknownInABatchThatWentThrough() {
        List<Object> items = twoItems();
        Map<TopicPartition, Long> mark = events.mark();
        assertProblem(late.post("/payments/batch", Map.of("payments", items)), 503, "outcome-unknown");
        assertThat(events.since(mark)).as("the broker holds both").hasSize(2);

        RefusedSends.refusedKey = payee; // item 1 pays from payee: its record cannot be sent now
        Http.Response resent = selective.post(
                "/payments/batch",
                Map.of(
                        "payments",
                        List.of(
                                Map.of(
                                        "idempotencyKey",
                                        "b4-" + UUID.randomUUID(),
                                        "payerAccountId",
                                        payer,
                                        "payeeAccountId",
                                        payee,
                                        "amountCentavos",
                                        4),
                                items.get(1))));

        assertThat(resent.status()).as("%s", resent).isEqualTo(200);
        assertThat(resent.json().path("acceptedCount").asInt()).as("%s", resent).isEqualTo(1);
        assertThat(resent.json().path("results").path(1).path("status").asString())
                .as("%s", resent)
                .isEqualTo("UNKNOWN");
        assertThat(resent.json()
                        .path("results")
                        .path(1)
                        .path("problem")
                        .path("type")
                        .asString())
                .endsWith("/outcome-unknown");
        assertThat(resent.json().path("unknownCount").asInt()).isEqualTo(1);
        assertThat(resent.json().path("rejectedCount").asInt()).isZero();
    }

    /** Two batch items, each way between payer and payee, under fresh keys. */
    private List<Object> twoItems() {
        return List.of(
                Map.of(
                        "idempotencyKey",
                        "b1-" + UUID.randomUUID(),
                        "payerAccountId",
                        payer,
                        "payeeAccountId",
                        payee,
                        "amountCentavos",
                        1),
                Map.of(
                        "idempotencyKey",
                        "b2-" + UUID.randomUUID(),
                        "payerAccountId",
                        payee,
                        "payeeAccountId",
                        payer,
                        "amountCentavos",
                        2));
    }

    /**
     * Refuses to send every record keyed by {@link #refusedKey} (a payer account), as a producer that cannot reach the
     * broker does (send throws): the record is never handed to the broker. Others are sent as usual.
     */
    static final class RefusedSends {
        static volatile String refusedKey;

        @SuppressWarnings("unchecked")
        static <K, V> Producer<K, V> wrap(Producer<K, V> producer) {
            return (Producer<K, V>) Proxy.newProxyInstance(
                    Producer.class.getClassLoader(), new Class<?>[] {Producer.class}, (proxy, method, args) -> {
                        if (method.getName().equals("send")
                                && args != null
                                && args[0] instanceof ProducerRecord<?, ?> record
                                && record.key() != null
                                && record.key().equals(refusedKey)) {
                            throw new org.apache.kafka.common.errors.TimeoutException(
                                    "the test refuses records keyed " + refusedKey);
                        }
                        try {
                            return method.invoke(producer, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }

    /** Answers every send's callback {@link #DELAY} after the broker did: the record is written, the ack is late. */
    static final class LateAcknowledgements {
        static final Duration DELAY = Duration.ofSeconds(6);
        private static final ScheduledExecutorService LATER = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "late-acks");
            thread.setDaemon(true);
            return thread;
        });

        @SuppressWarnings("unchecked")
        static <K, V> Producer<K, V> wrap(Producer<K, V> producer) {
            return (Producer<K, V>) Proxy.newProxyInstance(
                    Producer.class.getClassLoader(), new Class<?>[] {Producer.class}, (proxy, method, args) -> {
                        if (method.getName().equals("send")
                                && args != null
                                && args.length == 2
                                && args[1] instanceof Callback callback) {
                            args = new Object[] {
                                args[0],
                                (Callback) (metadata, exception) -> LATER.schedule(
                                        () -> callback.onCompletion(metadata, exception),
                                        DELAY.toMillis(),
                                        TimeUnit.MILLISECONDS)
                            };
                        }
                        try {
                            return method.invoke(producer, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }
}
