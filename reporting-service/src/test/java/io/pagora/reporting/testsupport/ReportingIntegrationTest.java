package io.pagora.reporting.testsupport;

import io.pagora.events.Topics;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.testing.Http;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestCertificates;
import io.pagora.testing.TestPostgres;
import java.util.HashMap;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole service on real servers: an embedded KRaft Kafka broker with the payment topics (one broker
 * per test class, torn down with the class's context), a fresh database per test class on test-support's
 * {@link TestPostgres}, the web server on a random port behind mutual TLS, and {@link Http} clients of it
 * that present a participant's certificate ({@link TestCertificates}): every query says who asks.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "pagora.reporting.projection.transient-retry-max-interval=1s",
            // A short window: the tests wait less (a test of the window sets its own).
            "pagora.reporting.projection.window=100ms",
            "spring.kafka.producer.properties.linger.ms=0",
            "logging.level.org.apache.kafka=ERROR",
            "logging.level.kafka=ERROR",
            "logging.level.state.change.logger=WARN",
            // The embedded broker logs its own shutdown as errors.
            "logging.level.org.apache.kafka.coordinator=OFF"
        })
// The topics exist before the service and the tests produce: kafka-clients 4.2.1 can lose a batch produced
// in the instant after a topic's creation (KAFKA-15591), which tests that create and produce at once would hit.
@EmbeddedKafka(
        partitions = Topics.PARTITIONS,
        topics = {
            Topics.PAYMENTS_REQUESTED, Topics.PAYMENT_OUTCOMES,
            Topics.PAYMENTS_REQUESTED_DEAD_LETTER, Topics.PAYMENT_OUTCOMES_DEAD_LETTER
        })
// Each class its own context, so its own broker and database: the next class's context calls database() again.
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@ServerBacked
public abstract class ReportingIntegrationTest {

    @LocalServerPort
    protected int port;

    @Value("${spring.kafka.bootstrap-servers}")
    protected String bootstrapServers;

    private final TestCertificates certificates = TestCertificates.shared();
    /** One client per identity for the test (each has its own connection pool and TLS context). */
    private final Map<String, Http> clients = new HashMap<>();

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestPostgres.register(registry);
        TestCertificates.register(registry);
    }

    /** The bank with this ISPB: it reads its own payments, accounts and positions. */
    protected Http bank(int ispb) {
        return as(certificates.bank(ispb));
    }

    /** The bank that holds {@code accountId} (a PIX chart id names its bank): the one that may read its statement. */
    protected Http bankOf(String accountId) {
        return bank(ChartOfAccounts.bankOf(Id128.parse(accountId)).orElseThrow().ispb());
    }

    /** The switch operator: statistics, any bank's positions, the actuator. */
    protected Http operator() {
        return as(certificates.operator());
    }

    /** A client over TLS without a certificate: names nobody. */
    protected Http anonymous() {
        return clients.computeIfAbsent("", name -> Http.anonymous(port));
    }

    protected Http as(TestCertificates.Identity identity) {
        return clients.computeIfAbsent(identity.commonName(), name -> Http.as(identity, port));
    }
}
