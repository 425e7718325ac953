package io.pagora.payments.api;

import static io.pagora.payments.api.PaymentValidationTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.payments.api.testsupport.RequestedEvents;
import io.pagora.service.web.ParticipantConnections;
import io.pagora.testing.Http;
import io.pagora.testing.TestCertificates;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * No bank holds more connections than its bound (here 3), kept-alive idle ones included, so none can take the
 * server's connections and lock the other banks out: a request on one connection too many is answered 429
 * {@code participant-connections-limited} with Retry-After, nothing is published, and the connection is closed with
 * the answer; the connections the bank holds keep working, and another bank is served on a connection of its own.
 * Before this bound, a bank with 1,024 idle connections left every other bank waiting in the accept queue.
 */
@TestPropertySource(properties = "pagora.web.connections-per-participant-max=3")
class ParticipantConnectionsTest extends PaymentApiIntegrationTest {

    static final int HOLDER = 71;
    static final int OTHER = 72;
    static final int CLOSER = 73;

    @Autowired
    ParticipantConnections connections;

    @Test
    void aBankPastItsConnectionsIsAnswered429OnTheExtraOneWhileAnotherBankIsServed() {
        Participants participants = new Participants(port);
        participants.registerBank(HOLDER, "Banco " + HOLDER);
        participants.registerBank(OTHER, "Banco " + OTHER);
        // The first of the holder's connections: the client Participants keeps for it.
        String payer = participants.openAccount(HOLDER);
        String payee = participants.openAccount(OTHER);
        String otherPayer = participants.openAccount(OTHER);
        List<Http> held = new ArrayList<>(List.of(participants.bank(HOLDER)));
        try (RequestedEvents events = new RequestedEvents(kafkaBootstrapServers())) {
            Map<TopicPartition, Long> mark = events.mark();
            // Two more clients of the holder, each its own kept-alive connection: three, its bound.
            for (int i = 0; i < 2; i++) {
                Http connection = Http.as(TestCertificates.shared().bank(HOLDER), port);
                assertThat(pay(connection, payer, payee).status()).isEqualTo(202);
                held.add(connection);
            }

            Http.Response extra = pay(Http.as(TestCertificates.shared().bank(HOLDER), port), payer, payee);
            Http.Response other = pay(participants.bank(OTHER), otherPayer, payee);
            List<Integer> onHeldConnections = held.stream()
                    .map(connection -> pay(connection, payer, payee).status())
                    .toList();

            assertProblem(extra, 429, "participant-connections-limited");
            assertThat(extra.header("Retry-After")).isEqualTo("1");
            assertThat(extra.headers().firstValue("Connection"))
                    .as("closed with the answer")
                    .hasValue("close");
            assertThat(other.status()).as("another bank is served: %s", other).isEqualTo(202);
            assertThat(onHeldConnections)
                    .as("the holder's own connections keep working")
                    .containsOnly(202);
            assertThat(events.since(mark))
                    .as("2 + 1 (other bank) + 3 published, the refused one not")
                    .hasSize(6);
        }
    }

    /**
     * A connection the bank closed counts no more, at once: a client that opens a connection per request is never
     * taken for one holding them (before, a closed connection stayed counted for the keep-alive timeout, a minute).
     */
    @Test
    void aConnectionTheBankClosedCountsNoMore() throws InterruptedException {
        Participants participants = new Participants(port);
        participants.registerBank(CLOSER, "Banco " + CLOSER);
        String payer = participants.openAccount(CLOSER);
        String payee = participants.openAccount(CLOSER);
        participants.bank(CLOSER).close();

        List<Integer> statuses = new ArrayList<>();
        for (int connection = 0; connection < 6; connection++) {
            Http once = Http.as(TestCertificates.shared().bank(CLOSER), port);
            statuses.add(pay(once, payer, payee).status());
            once.close();
            awaitClosedOnServer(participants);
        }

        assertThat(statuses)
                .as("six connections one after another, each closed: never more than one held")
                .containsOnly(202);
    }

    /** The server sees a client's close a moment later (its poller): waits, bounded, until none of CLOSER's counts. */
    private void awaitClosedOnServer(Participants participants) {
        await().atMost(Duration.ofSeconds(5))
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(20))
                .until(() -> connections.connectionsOf("ispb-" + String.format("%08d", CLOSER)) == 0);
    }

    private static Http.Response pay(Http connection, String payer, String payee) {
        return connection.post(
                "/payments", Http.payment(payer, payee, 1_00), "Idempotency-Key", "connections-" + UUID.randomUUID());
    }
}
