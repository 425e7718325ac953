package io.pagora.reporting.testsupport;

import io.pagora.events.Topics;
import io.pagora.testing.Http;
import io.pagora.testing.TestCertificates;
import io.pagora.testing.TestPostgres;
import org.junit.jupiter.api.BeforeEach;
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
 * {@link TestPostgres}, the web server on a random port and an {@link Http} client of it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "pagora.reporting.projection.transient-retry-max-interval=1s",
        "spring.kafka.consumer.properties.fetch.max.wait.ms=100",
        "spring.kafka.producer.properties.linger.ms=0",
        "logging.level.org.apache.kafka=ERROR",
        "logging.level.kafka=ERROR",
        "logging.level.state.change.logger=WARN",
        // The embedded broker logs its own shutdown as errors.
        "logging.level.org.apache.kafka.coordinator=OFF"})
// The topics exist before the service and the tests produce: kafka-clients 4.2.1 can lose a batch produced
// in the instant after a topic's creation (KAFKA-15591), which tests that create and produce at once would hit.
@EmbeddedKafka(partitions = Topics.PARTITIONS, topics = {
        Topics.PAYMENTS_REQUESTED, Topics.PAYMENT_OUTCOMES,
        Topics.PAYMENTS_REQUESTED_DEAD_LETTER, Topics.PAYMENT_OUTCOMES_DEAD_LETTER})
// Each class its own context, so its own broker and database: the next class's context calls database() again.
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
public abstract class ReportingIntegrationTest {

    @LocalServerPort
    protected int port;

    @Value("${spring.kafka.bootstrap-servers}")
    protected String bootstrapServers;

    /** A client of the service, new for every test. */
    protected Http http;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestPostgres.register(registry);
        TestCertificates.register(registry);
    }

    @BeforeEach
    void openHttp() {
        http = new Http(port);
    }
}
