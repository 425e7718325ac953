package io.pagora.reporting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.events.PaymentEvent;
import io.pagora.events.RejectionReason;
import io.pagora.reporting.adapter.kafka.ProjectionListener;
import io.pagora.reporting.testsupport.EventPublisher;
import io.pagora.reporting.testsupport.Payments;
import io.pagora.reporting.testsupport.Payments.Payment;
import io.pagora.reporting.testsupport.ReportingIntegrationTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.test.context.TestPropertySource;

/**
 * The projection's window on a real broker and database: a payment whose request and outcome the broker delivers
 * within one window is written once, by one INSERT that is already final, with its statement entries, and never
 * updated; one whose outcome comes after the hold is inserted, then finalized, and ends the same; a window delivered
 * again writes nothing. "Written by one transaction and never since" is read from the row itself: PostgreSQL stamps a
 * row version with the transaction that wrote it (xmin), the projection stamps the row with the transaction that
 * inserted it (projected_xid, which an UPDATE keeps), so the two are equal only for a row never updated.
 *
 * <p>A request whose outcome is not in its window is held back (8 s here) until it is: written once too, and a
 * consumer stopped while it holds one loses nothing (the offsets it committed stop at the request).
 *
 * <p>One consumer and a 3 s window, so the test can tell where a window starts: right after a poll committed.
 */
@TestPropertySource(
        properties = {
            "pagora.reporting.projection.window=3s",
            "pagora.reporting.projection.concurrency=1",
            "pagora.reporting.projection.request-hold=8s"
        })
class WrittenOnceTest extends ReportingIntegrationTest {

    private static final Duration PROJECTED_WITHIN = Duration.ofSeconds(60);
    private static final Duration WINDOW = Duration.ofSeconds(3);
    /** Payments whose request and outcome are published within one window. */
    private static final int PAYMENTS = 40;
    /** How long after its request a payment's outcome is published: as a receiving bank answering over HTTPS. */
    private static final Duration OUTCOME_AFTER_REQUEST = Duration.ofMillis(300);

    /** Per payment: written by one transaction (xmin), the one that inserted it, and its statement entries with it. */
    private static final String WRITTEN = """
            SELECT p.payment_id::text AS payment_id, p.status,
                   p.xmin::text = (p.projected_xid::text::numeric % 4294967296)::text AS never_updated,
                   (SELECT count(*) FROM reporting.statement_entries e
                    WHERE e.payment_id = p.payment_id AND e.xmin::text = p.xmin::text) AS entries_with_the_row
            FROM reporting.payments p WHERE p.payment_id = ANY (?::uuid[])
            """;

    // Each account's settled totals against its statement entries, and the stats row against a count of the rows.
    private static final String FLOW_DIFFERENCES = """
            SELECT count(*) FROM reporting.account_flows f
            FULL JOIN (SELECT account_id,
                              coalesce(sum(amount_centavos) FILTER (WHERE direction = 'DEBIT'), 0) AS outgoing,
                              coalesce(sum(amount_centavos) FILTER (WHERE direction = 'CREDIT'), 0) AS incoming
                       FROM reporting.statement_entries GROUP BY account_id) e USING (account_id)
            WHERE (f.outgoing_centavos, f.incoming_centavos) IS DISTINCT FROM (e.outgoing, e.incoming)
            """;
    private static final String STATS_DIFFERENCES = """
            SELECT count(*) FROM reporting.payment_stats s,
                (SELECT count(*) FILTER (WHERE status = 'ACCEPTED') AS accepted,
                        count(*) FILTER (WHERE status = 'SETTLED') AS settled,
                        count(*) FILTER (WHERE status = 'REJECTED') AS rejected,
                        count(*) FILTER (WHERE status = 'EXPIRED') AS expired
                 FROM reporting.payments) c
            WHERE (s.accepted_count, s.settled_count, s.rejected_count, s.expired_count)
                  IS DISTINCT FROM (c.accepted, c.settled, c.rejected, c.expired)
            """;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MeterRegistry meters;

    @Autowired
    KafkaListenerEndpointRegistry listeners;

    static EventPublisher publisher;

    @BeforeAll
    static void publisher(@Value("${spring.kafka.bootstrap-servers}") String bootstrapServers) {
        publisher = new EventPublisher(bootstrapServers);
    }

    @AfterAll
    static void closePublisher() {
        publisher.close();
    }

    @Test
    void aRequestAndItsOutcomeWithinTheWindowAreOneInsertAndNoUpdateAndAWindowDeliveredAgainWritesNothing()
            throws InterruptedException {
        assertThat(listeners
                        .getListenerContainer(ProjectionListener.LISTENER_ID)
                        .getContainerProperties()
                        .getKafkaConsumerProperties()
                        .getProperty(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG))
                .as("the consumer's fetch waits for the window")
                .isEqualTo("3000");
        awaitAWindowStarted();
        double onceBefore = completed("once");
        double twiceBefore = completed("twice");

        List<Payment> payments = new ArrayList<>();
        List<PaymentEvent> requests = new ArrayList<>();
        List<PaymentEvent> outcomes = new ArrayList<>();
        for (int i = 0; i < PAYMENTS; i++) {
            Payment payment = Payments.any();
            payments.add(payment);
            requests.add(payment.requested());
            outcomes.add(i % 10 == 9 ? payment.rejected(RejectionReason.INSUFFICIENT_FUNDS) : payment.settled());
        }
        publisher.publish(requests.toArray(PaymentEvent[]::new));
        Thread.sleep(OUTCOME_AFTER_REQUEST);
        publisher.publish(outcomes.toArray(PaymentEvent[]::new));
        awaitFinal(payments);

        List<Map<String, Object>> rows = written(payments);
        assertThat(rows).hasSize(PAYMENTS).allSatisfy(row -> {
            assertThat(row.get("never_updated"))
                    .as("%s: inserted final, never updated", row.get("payment_id"))
                    .isEqualTo(true);
            assertThat(row.get("entries_with_the_row"))
                    .as("%s: its statement entries written with its row", row.get("payment_id"))
                    .isEqualTo("SETTLED".equals(row.get("status")) ? 2L : 0L);
        });
        awaitCompleted(onceBefore + PAYMENTS, twiceBefore);
        assertConsistent();

        // The same window again, as Kafka redelivers it when the consumer stopped before committing its offsets.
        List<PaymentEvent> again = new ArrayList<>(requests);
        again.addAll(outcomes);
        publisher.publish(again.toArray(PaymentEvent[]::new));
        Payment marker = Payments.any();
        publisher.publish(marker.requested(), marker.settled());
        awaitFinal(List.of(marker));

        assertThat(written(payments))
                .as("no row version, no entry written again")
                .isEqualTo(rows);
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM reporting.payments WHERE payment_id = ANY (?::uuid[])",
                        Long.class,
                        ids(payments)))
                .isEqualTo(PAYMENTS);
        // Only the marker completed (once, or twice if a window fell between its two events).
        await().atMost(PROJECTED_WITHIN)
                .until(() -> completed("once") + completed("twice") == onceBefore + twiceBefore + PAYMENTS + 1);
        assertConsistent();
    }

    @Test
    void aRequestWhoseOutcomeComesAWindowLaterIsHeldAndWrittenOnceEvenAcrossAConsumerRestart()
            throws InterruptedException {
        awaitAWindowStarted();
        double onceBefore = completed("once");
        double twiceBefore = completed("twice");
        Payment waiting = Payments.any();
        Payment restarted = Payments.any();
        publisher.publish(waiting.requested(), restarted.requested());
        Thread.sleep(WINDOW.plusSeconds(1).toMillis());

        assertThat(status(waiting))
                .as("held back: its window was written without it")
                .isEmpty();
        assertThat(meters.get("pagora.reporting.requests.held").gauge().value()).isEqualTo(2.0);
        publisher.publish(waiting.settled());
        awaitFinal(List.of(waiting));

        // Stopped while it holds a request: what it held is dropped, and given again to the consumer that follows.
        MessageListenerContainer container = listeners.getListenerContainer(ProjectionListener.LISTENER_ID);
        container.stop();
        await().atMost(PROJECTED_WITHIN).until(() -> !container.isRunning());
        assertThat(meters.get("pagora.reporting.requests.held").gauge().value()).isZero();
        publisher.publish(restarted.settled());
        container.start();
        awaitFinal(List.of(restarted));

        assertThat(written(List.of(waiting, restarted))).allSatisfy(row -> {
            assertThat(row.get("never_updated"))
                    .as("%s: inserted final, never updated", row.get("payment_id"))
                    .isEqualTo(true);
            assertThat(row.get("entries_with_the_row")).isEqualTo(2L);
        });
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM reporting.payments WHERE payment_id = ANY (?::uuid[])"
                                + " AND requested_at IS NOT NULL AND end_to_end_id IS NOT NULL",
                        Long.class,
                        ids(List.of(waiting, restarted))))
                .as("each written with its request, the one dropped by the stop included")
                .isEqualTo(2);
        awaitCompleted(onceBefore + 2, twiceBefore);
        assertConsistent();
    }

    @Test
    void anOutcomeAfterTheHoldIsAnInsertThenAnUpdateAndEndsTheSame() {
        double onceBefore = completed("once");
        double twiceBefore = completed("twice");
        Payment payment = Payments.any();
        publisher.publish(payment.requested());
        await().atMost(PROJECTED_WITHIN).until(() -> status(payment).equals("ACCEPTED"));

        publisher.publish(payment.settled());
        awaitFinal(List.of(payment));

        Map<String, Object> row = written(List.of(payment)).getFirst();
        assertThat(row.get("status")).isEqualTo("SETTLED");
        assertThat(row.get("never_updated"))
                .as("finalized by a later transaction")
                .isEqualTo(false);
        assertThat(row.get("entries_with_the_row"))
                .as("its statement entries written by the finalizing transaction")
                .isEqualTo(2L);
        awaitCompleted(onceBefore, twiceBefore + 1);
        assertConsistent();
    }

    /** Returns once a poll has committed: the consumer's next window started as that poll returned. */
    private void awaitAWindowStarted() {
        Payment sentinel = Payments.any();
        publisher.publish(sentinel.requested());
        await().atMost(PROJECTED_WITHIN)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> status(sentinel).equals("ACCEPTED"));
    }

    private void awaitFinal(List<Payment> payments) {
        await().atMost(PROJECTED_WITHIN)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> jdbc.queryForObject(
                                "SELECT count(*) FROM reporting.payments WHERE payment_id = ANY (?::uuid[])"
                                        + " AND status <> 'ACCEPTED'",
                                Long.class,
                                ids(payments))
                        == payments.size());
    }

    /** The metrics count a poll after its transaction committed: a moment after its rows are visible. */
    private void awaitCompleted(double once, double twice) {
        await().atMost(PROJECTED_WITHIN).untilAsserted(() -> {
            assertThat(completed("once")).as("written once").isEqualTo(once);
            assertThat(completed("twice")).as("written twice").isEqualTo(twice);
        });
    }

    private void assertConsistent() {
        assertThat(jdbc.queryForObject(FLOW_DIFFERENCES, Long.class))
                .as("each account's flows are the sum of its statement entries")
                .isZero();
        assertThat(jdbc.queryForObject(STATS_DIFFERENCES, Long.class))
                .as("the stats row counts the rows")
                .isZero();
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM reporting.statement_entries e"
                                + " JOIN reporting.payments p USING (payment_id) WHERE p.status <> 'SETTLED'",
                        Long.class))
                .as("statement entries only for settled payments")
                .isZero();
    }

    private String status(Payment payment) {
        List<String> statuses = jdbc.queryForList(
                "SELECT status FROM reporting.payments WHERE payment_id = ?::uuid", String.class, payment.paymentId());
        return statuses.isEmpty() ? "" : statuses.getFirst();
    }

    private List<Map<String, Object>> written(List<Payment> payments) {
        return jdbc.queryForList(WRITTEN + " ORDER BY p.payment_id", ids(payments));
    }

    private static String ids(List<Payment> payments) {
        return "{" + String.join(",", payments.stream().map(Payment::paymentId).toList()) + "}";
    }

    private double completed(String writes) {
        return meters.get("pagora.reporting.payments.completed")
                .tag("writes", writes)
                .counter()
                .count();
    }
}
