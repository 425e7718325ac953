package io.pagora.reporting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.events.PaymentEvent;
import io.pagora.events.RejectionReason;
import io.pagora.reporting.adapter.jdbc.JdbcReadModelWriter;
import io.pagora.reporting.adapter.kafka.ProjectionListener;
import io.pagora.reporting.testsupport.CountingDataSource;
import io.pagora.reporting.testsupport.EventPublisher;
import io.pagora.reporting.testsupport.Payments;
import io.pagora.reporting.testsupport.Payments.Payment;
import io.pagora.reporting.testsupport.ReportingIntegrationTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * Proves the projection is set-based: N events waiting in Kafka are projected in as many database
 * transactions as there were polls (one per poll, committed), each running at most
 * {@value JdbcReadModelWriter#STATEMENTS_PER_POLL_MAX} statements whatever the number of events. The
 * poll includes the same payment twice and a conflicting outcome, which the in-poll merge absorbs
 * (PostgreSQL could not upsert one row twice in one statement), and every kind of change the writer
 * makes (insert, finalize, fill a late request, read back a redelivery and a conflict). Counted by a
 * JDBC wrapper over the real DataSource, on the listener's threads only; the measured events are all
 * published while the listener is stopped, so they wait in Kafka for one poll.
 */
@TestPropertySource(
        properties = {"pagora.reporting.projection.auto-startup=false", "pagora.reporting.projection.concurrency=1"})
class OnePollOneTransactionTest extends ReportingIntegrationTest {

    /** Payments projected before the measured poll, half requested only, half settled only. */
    private static final int EXISTING = 60;
    /** Payments new to the measured poll. */
    private static final int NEW = 150;

    @TestConfiguration
    static class CountTransactions {
        @Bean
        static BeanPostProcessor countingDataSource() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String name) {
                    return bean instanceof DataSource dataSource && !(bean instanceof CountingDataSource)
                            ? new CountingDataSource(
                                    dataSource, thread -> thread.startsWith(ProjectionListener.LISTENER_ID))
                            : bean;
                }
            };
        }
    }

    @Autowired
    DataSource dataSource;

    @Autowired
    KafkaListenerEndpointRegistry listeners;

    @Autowired
    MeterRegistry meters;

    @Test
    void aPollOfManyEventsIsOneTransactionOfAFewStatements() {
        MessageListenerContainer listener = listeners.getListenerContainer(ProjectionListener.LISTENER_ID);
        CountingDataSource counting = (CountingDataSource) dataSource;

        // Phase 1 (several polls allowed): payments the big poll will find already projected.
        List<Payment> requestedFirst = new ArrayList<>();
        List<Payment> outcomeFirst = new ArrayList<>();
        List<PaymentEvent> phase1 = new ArrayList<>();
        for (int i = 0; i < EXISTING; i++) {
            Payment requested = Payments.any();
            requestedFirst.add(requested);
            phase1.add(requested.requested());
            Payment settled = Payments.any();
            outcomeFirst.add(settled);
            phase1.add(settled.settled());
        }
        Payment complete = Payments.any();
        phase1.add(complete.requested());
        phase1.add(complete.settled());
        publish(phase1);
        listener.start();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode counts = operator().json("/stats").get("counts");
            assertThat(counts.get("ACCEPTED").asLong()).isEqualTo(EXISTING);
            assertThat(counts.get("SETTLED").asLong()).isEqualTo(EXISTING + 1);
        });
        listener.stop();

        // Phase 2, published while the listener is stopped so it waits in Kafka for one poll: new payments
        // (insert), outcomes of requested ones (finalize), requests of settled ones (fill), the same payment
        // twice, a conflicting outcome in the poll, and a redelivered request with a conflicting outcome of a
        // complete payment (read back, alarm).
        List<PaymentEvent> phase2 = new ArrayList<>();
        for (int i = 0; i < NEW; i++) {
            Payment payment = Payments.any();
            phase2.add(payment.requested());
            phase2.add(payment.settled());
        }
        requestedFirst.forEach(payment -> phase2.add(payment.settled()));
        outcomeFirst.forEach(payment -> phase2.add(payment.requested()));
        Payment twice = requestedFirst.getFirst();
        phase2.add(twice.requested());
        phase2.add(twice.settled());
        phase2.add(outcomeFirst.getFirst().expired());
        phase2.add(complete.requested());
        phase2.add(complete.rejected(RejectionReason.RECEIVING_BANK_REFUSED));
        publish(phase2);

        DistributionSummary polls = meters.get("pagora.reporting.poll.events").summary();
        long pollsBefore = polls.count();
        int transactionsBefore = counting.transactions().size();
        listener.start();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode stats = operator().json("/stats");
            assertThat(stats.get("counts").get("SETTLED").asLong()).isEqualTo(2L * EXISTING + NEW + 1);
            assertThat(stats.get("total").asLong()).isEqualTo(2L * EXISTING + NEW + 1);
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> (long) polls.totalAmount() == phase1.size() + phase2.size());

        List<CountingDataSource.Transaction> transactions = counting.transactions()
                .subList(transactionsBefore, counting.transactions().size());
        long pollCount = polls.count() - pollsBefore;
        System.out.printf(
                "[OnePollOneTransactionTest] %d events in %d poll(s): %s%n", phase2.size(), pollCount, transactions);
        assertThat(transactions).as("one transaction per poll").hasSize((int) pollCount);
        assertThat(transactions).allSatisfy(transaction -> {
            assertThat(transaction.committed()).isTrue();
            assertThat(transaction.statements()).isBetween(1, JdbcReadModelWriter.STATEMENTS_PER_POLL_MAX);
        });
        // Batching, not a transaction per record: the polls are few and large.
        assertThat(pollCount).isLessThanOrEqualTo(phase2.size() / 50);
        assertThat(meters.get("pagora.reporting.conflicting.outcomes").counter().count())
                .isEqualTo(2);
        if (pollCount == 1) {
            assertThat(transactions.getFirst().statements())
                    .as("this poll needs every statement")
                    .isEqualTo(JdbcReadModelWriter.STATEMENTS_PER_POLL_MAX);
        }
        assertThat(bankOf(outcomeFirst.getFirst().payer())
                        .json("/payments/" + outcomeFirst.getFirst().paymentId())
                        .get("status")
                        .asString())
                .isEqualTo("SETTLED");
        assertThat(bankOf(outcomeFirst.getFirst().payer())
                        .json("/payments/" + outcomeFirst.getFirst().paymentId())
                        .has("currency"))
                .isTrue();
        assertThat(bankOf(twice.payer())
                        .json("/payments/" + twice.paymentId())
                        .get("status")
                        .asString())
                .isEqualTo("SETTLED");
    }

    private void publish(List<PaymentEvent> events) {
        try (EventPublisher publisher = new EventPublisher(bootstrapServers)) {
            publisher.publish(events.toArray(PaymentEvent[]::new));
        }
    }
}
