package io.pagora.reporting;

import io.pagora.service.config.ServiceDefaults;
import io.pagora.service.kafka.KafkaClientMetricsConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.kafka.autoconfigure.metrics.KafkaMetricsAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * The reporting service: the CQRS read side of Pagora. It projects the payment events from Kafka into
 * schema {@code reporting} and answers payment status, account statement, bank position and stats
 * queries over HTTP. It never writes to the ledger and never publishes payment events.
 */
// Kafka client metrics are bound by service-support's KafkaClientMetricsConfiguration (5 s refresh), not Boot's.
@SpringBootApplication(exclude = KafkaMetricsAutoConfiguration.class)
@Import({ServiceDefaults.class, KafkaClientMetricsConfiguration.class})
@ConfigurationPropertiesScan
public class ReportingServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(ReportingServiceApplication.class, args);
    }
}
