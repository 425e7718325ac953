package io.pagora.payments.api;

import static io.pagora.payments.api.PaymentValidationTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pagora.events.Topics;
import io.pagora.payments.api.testsupport.SecondInstance;
import io.pagora.payments.api.testsupport.SecondInstanceTest;
import io.pagora.testing.Http;
import io.pagora.testing.ServerBacked;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Admission control from clearing's lag, on the real broker: an instance whose clearing group is stuck
 * (its committed offsets held at the start of the requests topic, as a clearing that stopped consuming
 * would leave them) refuses new payments — single and batch — with 429 {@code overloaded} and
 * Retry-After, at once and publishing nothing; once the group catches up, it accepts again. A lag that
 * cannot be judged (a group that never committed) refuses nothing.
 */
@ServerBacked
class AdmissionControlTest extends SecondInstanceTest {

    private static final String STUCK_GROUP = "stuck-clearing-" + UUID.randomUUID();

    @Override
    protected int bankIspb() {
        return 44;
    }

    Http guarded;
    ConfigurableApplicationContext guardedInstance;
    Admin admin;

    @BeforeAll
    void setUp() {
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafkaBootstrapServers()));
        guardedInstance = SecondInstance.start(
                database,
                context -> {},
                "--spring.kafka.bootstrap-servers=" + kafkaBootstrapServers(),
                "--pagora.payments.admission.clearing-group-id=" + STUCK_GROUP,
                "--pagora.payments.admission.clearing-lag-max=3",
                "--pagora.payments.admission.lag-refresh-interval=200ms");
        guarded = SecondInstance.http(guardedInstance, bankIdentity());
    }

    @AfterAll
    void tearDown() {
        admin.close();
        if (guardedInstance != null) {
            guardedInstance.close();
        }
    }

    @Test
    void aClearingThatFallsBehindMakesNewPaymentsAnswer429AtOnceAndCatchingUpReopens() throws Exception {
        assertThat(pay().status())
                .as("a group that never committed: lag unknown, nothing refused")
                .isEqualTo(202);
        for (int i = 0; i < 4; i++) {
            assertThat(pay().status()).isEqualTo(202);
        }
        commitStuckGroupAt(false);

        // Payments accepted until the next lag measure are fine; from the first 429 on, nothing passes.
        Http.Response refused = awaitStatus(429);
        Map<TopicPartition, Long> mark = events.mark();
        long started = System.nanoTime();
        Http.Response again = pay();
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        Http.Response batch = guarded.post(
                "/payments/batch",
                Map.of(
                        "payments",
                        List.of(Map.of(
                                "idempotencyKey",
                                "adm-" + UUID.randomUUID(),
                                "payerAccountId",
                                payer,
                                "payeeAccountId",
                                payee,
                                "amountCentavos",
                                5))));

        assertProblem(refused, 429, "overloaded");
        assertThat(refused.header("Retry-After")).isNotNull();
        assertThat(refused.json().path("detail").asString())
                .contains("clearing is")
                .contains("payments behind");
        assertProblem(again, 429, "overloaded");
        assertThat(took).as("refused at once, not after a wait").isLessThan(Duration.ofSeconds(2));
        assertProblem(batch, 429, "overloaded");
        assertThat(events.since(mark))
                .as("nothing published for a refused payment")
                .isEmpty();

        commitStuckGroupAt(true);
        assertThat(awaitStatus(202).status()).isEqualTo(202);
    }

    private Http.Response pay() {
        return guarded.post(
                "/payments", Http.payment(payer, payee, 1_00), "Idempotency-Key", "adm-" + UUID.randomUUID());
    }

    private Http.Response awaitStatus(int status) {
        return await().atMost(Duration.ofSeconds(10))
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(100))
                .until(this::pay, response -> response.status() == status);
    }

    /** Commits the stuck group's offsets at the start of every partition, or at their end (caught up). */
    private void commitStuckGroupAt(boolean end) throws Exception {
        Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
        for (int partition = 0; partition < Topics.PARTITIONS; partition++) {
            specs.put(
                    new TopicPartition(Topics.PAYMENTS_REQUESTED, partition),
                    end ? OffsetSpec.latest() : OffsetSpec.earliest());
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        admin.listOffsets(specs)
                .all()
                .get(10, TimeUnit.SECONDS)
                .forEach((partition, info) -> offsets.put(partition, new OffsetAndMetadata(info.offset())));
        admin.alterConsumerGroupOffsets(STUCK_GROUP, offsets).all().get(10, TimeUnit.SECONDS);
    }
}
