package io.pagora.payments.api;

import static io.pagora.payments.api.PaymentValidationTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.payments.api.config.PaymentApiProperties;
import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.SecondInstance;
import io.pagora.payments.api.testsupport.SecondInstanceTest;
import io.pagora.testing.Http;
import io.pagora.testing.TestCertificates;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;
import org.springframework.test.context.TestPropertySource;

/**
 * Overload is answered, fairly. Each participant has its own token bucket (here 3 payments of burst, 1 a second
 * refilled, so a test can empty it) and its own bound on requests in flight (here 1): a bank past its bucket is
 * answered 429 {@code participant-rate-limited} with Retry-After at once, with nothing claimed or published, on the
 * single endpoint and per item on the batch endpoint, and a bank past its requests in flight 429
 * {@code participant-concurrency-limited}, while another bank's payments are accepted. And the single-payment
 * intake can never hold every connection: its queue and its groups together stay below Tomcat's
 * {@code max-connections}, so its own 429 fires before clients are left in the accept backlog — a setting that
 * would break the relation refuses to start.
 */
@TestPropertySource(
        properties = {
            "pagora.payments.participant-limits.burst=3",
            "pagora.payments.participant-limits.refill-per-second=1",
            "pagora.payments.participant-limits.in-flight-max=1",
            "pagora.payments.batch-items-max=3"
        })
class ParticipantFairnessTest extends SecondInstanceTest {

    static final int OTHER_BANK = 62;

    @Override
    protected int bankIspb() {
        return 61;
    }

    @Autowired
    PaymentApiProperties properties;

    @Autowired
    Environment environment;

    @Autowired
    MeterRegistry meters;

    @Test
    void oneBanksFloodIsAnswered429WithRetryAfterWhileAnotherBankIsAccepted() {
        Participants participants = new Participants(port);
        participants.registerBank(OTHER_BANK, "Banco " + OTHER_BANK);
        Http other = participants.bank(OTHER_BANK);
        String otherPayer = participants.openAccount(OTHER_BANK);

        // The flood: until the bucket is empty (3 of burst; a slow machine may refill one or two meanwhile).
        List<Integer> statuses = new ArrayList<>();
        Http.Response refused = null;
        for (int i = 0; i < 10 && refused == null; i++) {
            Http.Response response = healthy.post(
                    "/payments", Http.payment(payer, payee, 1_00), "Idempotency-Key", "flood-" + UUID.randomUUID());
            statuses.add(response.status());
            refused = response.status() == 429 ? response : null;
        }
        assertThat(statuses)
                .as("the burst is accepted, then the flood is refused")
                .startsWith(202, 202, 202)
                .contains(429);

        Map<TopicPartition, Long> mark = events.mark();
        long started = System.nanoTime();
        Http.Response again = healthy.post(
                "/payments", Http.payment(payer, payee, 1_00), "Idempotency-Key", "flood-" + UUID.randomUUID());
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        Http.Response batch = healthy.post("/payments/batch", Map.of("payments", items(payer, payee, 3)));
        Http.Response otherOne = other.post(
                "/payments", Http.payment(otherPayer, payee, 2_00), "Idempotency-Key", "other-" + UUID.randomUUID());
        Http.Response otherBatch = other.post("/payments/batch", Map.of("payments", items(otherPayer, payer, 2)));

        assertProblem(refused, 429, "participant-rate-limited");
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        assertProblem(again, 429, "participant-rate-limited");
        assertThat(took).as("answered at once, not queued").isLessThan(Duration.ofSeconds(1));
        assertProblem(batch, 429, "participant-rate-limited");
        assertThat(Integer.parseInt(batch.header("Retry-After")))
                .as("a batch takes a token per item: 3 at 1/s")
                .isGreaterThanOrEqualTo(2);
        assertThat(otherOne.status())
                .as("another bank is unaffected: %s", otherOne)
                .isEqualTo(202);
        assertThat(otherBatch.json().path("acceptedCount").asInt())
                .as("%s", otherBatch)
                .isEqualTo(2);
        assertThat(events.since(mark))
                .as("only the other bank's payments are published")
                .hasSize(3)
                .allSatisfy(event -> assertThat(event.key()).isEqualTo(otherPayer));
    }

    /**
     * A flood's refusals cost little: on a connection whose participant is known, a payment past the bucket is
     * refused before Spring Security and Spring MVC see it, with the very answer the controller gives on a connection
     * not known yet, and nothing is published. Before, every refusal went through the whole framework, at about the
     * CPU of an acceptance, so a flood at twice the held rate took the other banks' CPU.
     */
    @Test
    void aRefusalOnAKnownConnectionIsAnsweredBeforeTheFrameworkAsTheControllerAnswersIt() {
        int flooder = 65;
        Participants participants = new Participants(port);
        participants.registerBank(flooder, "Banco " + flooder);
        String from = participants.openAccount(flooder);
        String to = participants.openAccount(flooder);
        Http known = participants.bank(flooder);
        Map<TopicPartition, Long> mark = events.mark();
        double earlyBefore = earlyRefusals();

        List<Integer> statuses = new ArrayList<>();
        Http.Response refusedEarly = null;
        for (int i = 0; i < 10 && refusedEarly == null; i++) {
            Http.Response response = pay(known, from, to);
            statuses.add(response.status());
            refusedEarly = response.status() == 429 ? response : null;
        }
        double earlyAfterFlood = earlyRefusals();
        Http.Response refusedByController = null;
        for (int i = 0; i < 10 && refusedByController == null; i++) {
            Http fresh = Http.as(TestCertificates.shared().bank(flooder), port);
            Http.Response response = pay(fresh, from, to);
            fresh.close();
            statuses.add(response.status());
            refusedByController = response.status() == 429 ? response : null;
        }

        assertThat(refusedEarly)
                .as("the flood on one connection is refused: %s", statuses)
                .isNotNull();
        assertThat(refusedByController)
                .as("a new connection of the flooder is refused: %s", statuses)
                .isNotNull();
        assertProblem(refusedEarly, 429, "participant-rate-limited");
        assertThat(earlyAfterFlood - earlyBefore)
                .as("the known connection's refusal was answered early")
                .isEqualTo(1);
        assertThat(earlyRefusals())
                .as("a new connection's first request goes the usual way")
                .isEqualTo(earlyAfterFlood);
        assertThat(refusedEarly.json()).as("the same document").isEqualTo(refusedByController.json());
        assertThat(refusedEarly.header("Retry-After"))
                .isEqualTo("1")
                .isEqualTo(refusedByController.header("Retry-After"));
        assertThat(refusedEarly.contentType()).isEqualTo(refusedByController.contentType());
        assertThat(refusedEarly.header("Cache-Control")).isEqualTo(refusedByController.header("Cache-Control"));
        long accepted = statuses.stream().filter(status -> status == 202).count();
        assertThat(events.since(mark))
                .as("the accepted ones only: %s", statuses)
                .hasSize((int) accepted);
    }

    private double earlyRefusals() {
        return meters.counter("pagora.payments.refused.early").count();
    }

    private static Http.Response pay(Http bank, String from, String to) {
        return bank.post("/payments", Http.payment(from, to, 1_00), "Idempotency-Key", "early-" + UUID.randomUUID());
    }

    /**
     * A bank holding its one request in flight (its body still arriving: the slot is taken before the body is read)
     * is answered 429 participant-concurrency-limited for the next one, at once; another bank is served meanwhile.
     */
    @Test
    void aBankPastItsRequestsInFlightIsAnswered429WhileAnotherBankIsAccepted() throws Exception {
        int holder = 63;
        int other = 64;
        Participants participants = new Participants(port);
        participants.registerBank(holder, "Banco " + holder);
        participants.registerBank(other, "Banco " + other);
        String holderPayer = participants.openAccount(holder);
        String holderPayee = participants.openAccount(holder);
        String otherPayer = participants.openAccount(other);
        CountDownLatch bodyHeld = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        byte[] body = ("{\"payerAccountId\":\"" + holderPayer + "\",\"payeeAccountId\":\"" + holderPayee
                        + "\",\"amountCentavos\":100}")
                .getBytes(StandardCharsets.US_ASCII);
        CompletableFuture<Http.Response> held = CompletableFuture.supplyAsync(() -> participants
                .bank(holder)
                .send(
                        "/payments",
                        "POST",
                        HttpRequest.BodyPublishers.ofInputStream(() -> new HeldBody(body, bodyHeld, release)),
                        "application/json",
                        "Idempotency-Key",
                        "held-" + UUID.randomUUID()));
        try {
            assertThat(bodyHeld.await(10, TimeUnit.SECONDS))
                    .as("the held request is on its way")
                    .isTrue();
            Http.Response second = awaitRefusal(participants.bank(holder), holderPayer, holderPayee);
            Http.Response served = participants
                    .bank(other)
                    .post(
                            "/payments",
                            Http.payment(otherPayer, holderPayee, 1_00),
                            "Idempotency-Key",
                            "served-" + UUID.randomUUID());

            assertProblem(second, 429, "participant-concurrency-limited");
            assertThat(second.header("Retry-After")).isEqualTo("1");
            assertThat(served.status())
                    .as("another bank is unaffected: %s", served)
                    .isEqualTo(202);
        } finally {
            release.countDown();
        }
        assertThat(held.get(30, TimeUnit.SECONDS).status())
                .as("the held request is answered once its body arrives")
                .isEqualTo(202);
    }

    /** The holder's next payment, until its held request has reached the controller (bounded). */
    private static Http.Response awaitRefusal(Http bank, String from, String to) {
        return await().atMost(Duration.ofSeconds(5))
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> bank.post(
                                "/payments",
                                Http.payment(from, to, 1_00),
                                "Idempotency-Key",
                                "next-" + UUID.randomUUID()),
                        response -> response.status() == 429);
    }

    /** A body whose first bytes arrive at once and the rest only once released: the request stays in flight. */
    private static final class HeldBody extends InputStream {
        private final byte[] body;
        private final CountDownLatch held;
        private final CountDownLatch release;
        private int at;

        HeldBody(byte[] body, CountDownLatch held, CountDownLatch release) {
            this.body = body;
            this.held = held;
            this.release = release;
        }

        @Override
        public int read() throws IOException {
            if (at == 1) {
                held.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
            return at < body.length ? body[at++] : -1;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            int next = read();
            if (next < 0) {
                return -1;
            }
            buffer[offset] = (byte) next;
            return 1;
        }
    }

    @Test
    void theSingleIntakeStaysBelowTheConnectionBound() {
        int connectionsMax = environment.getRequiredProperty("server.tomcat.max-connections", Integer.class);
        int intakeMax =
                properties.groupCommitQueueMax() + properties.groupCommitThreads() * properties.groupCommitBatchMax();
        assertThat(intakeMax)
                .as("queued + committing single payments < max-connections")
                .isLessThan(connectionsMax);
        assertThat(properties.participantLimits().inFlightMax())
                .as("one bank cannot hold every connection")
                .isLessThan(connectionsMax);
    }

    @Test
    void aQueueThatCouldHoldEveryConnectionRefusesToStart() {
        assertThatThrownBy(() -> SecondInstance.start(
                                database,
                                context -> {},
                                "--spring.kafka.bootstrap-servers=" + kafkaBootstrapServers(),
                                "--pagora.payments.group-commit-queue-max=4096")
                        .close())
                .hasStackTraceContaining("max-connections");
    }

    /** {@code count} batch items from {@code from} to {@code to}, under fresh keys. */
    private static List<Object> items(String from, String to, int count) {
        List<Object> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            items.add(Map.of(
                    "idempotencyKey",
                    "fair-" + UUID.randomUUID(),
                    "payerAccountId",
                    from,
                    "payeeAccountId",
                    to,
                    "amountCentavos",
                    1 + i));
        }
        return items;
    }
}
