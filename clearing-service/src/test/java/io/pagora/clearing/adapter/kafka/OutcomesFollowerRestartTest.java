package io.pagora.clearing.adapter.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pagora.events.Topics;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestKafka;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.CommonClientConfigs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The outcomes follower on a real broker: it reads every instance's outcomes by their header, and a failure does not
 * end it. A follower that stayed down would hold every later poll of its instance at the instructed window's bound.
 */
@ServerBacked
class OutcomesFollowerRestartTest {

    static final PaymentId FIRST = new PaymentId(new Id128(0x0195L, 0x01L << 8));
    static final PaymentId SECOND = new PaymentId(new Id128(0x0195L, 0x02L << 8));
    static final Duration WITHIN = OutcomesFollower.RESTART_PAUSE.plusSeconds(20);

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aFailedFollowerStartsAgainAndMissesNothingPublishedMeanwhile() throws InterruptedException {
        try (TestKafka kafka = TestKafka.start()) {
            List<PaymentId> resolved = new CopyOnWriteArrayList<>();
            AtomicInteger calls = new AtomicInteger();
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            OutcomesFollower follower = new OutcomesFollower(
                    Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
                    payments -> {
                        if (calls.incrementAndGet() == 1) {
                            throw new IllegalStateException("the first poll's ids cannot be taken");
                        }
                        resolved.addAll(payments);
                    },
                    Clock.systemUTC(),
                    meters);
            follower.start();
            try {
                publish(kafka, FIRST);
                awaitUntil(() -> calls.get() >= 1, "the follower's first poll");
                publish(kafka, SECOND);

                awaitUntil(
                        () -> resolved.containsAll(List.of(FIRST, SECOND)), "both payments resolved after the restart");
                assertThat(meters.get(OutcomesFollower.FAILURES).counter().count())
                        .isEqualTo(1.0);
                assertThat(meters.get(OutcomesFollower.FOLLOWED).counter().count())
                        .isGreaterThanOrEqualTo(2.0);
            } finally {
                follower.stop();
            }
            assertThat(follower.isRunning()).isFalse();
        }
    }

    private static void publish(TestKafka kafka, PaymentId payment) {
        // Not an outcome: the header alone names the payment, as the follower reads it.
        kafka.publishRaw(
                Topics.PAYMENT_OUTCOMES,
                "payer",
                new byte[] {'{', '}'},
                Map.of(Topics.PAYMENT_ID_HEADER, payment.toString()));
    }

    private static void awaitUntil(java.util.function.BooleanSupplier done, String what) {
        await(what).atMost(WITHIN).pollInterval(Duration.ofMillis(50)).until(done::getAsBoolean);
    }
}
