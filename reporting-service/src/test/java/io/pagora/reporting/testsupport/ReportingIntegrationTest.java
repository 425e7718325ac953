package io.pagora.reporting.testsupport;

import io.pagora.events.Topics;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.test.context.EmbeddedKafka;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The whole service on real servers: an embedded KRaft Kafka broker with the payment topics (one broker
 * per test class, torn down with the class's context) and a fresh database on the embedded PostgreSQL (register it with
 * {@code @DynamicPropertySource} calling {@link TestPostgres}); the web server on a random port.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
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
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
public @interface ReportingIntegrationTest {}
