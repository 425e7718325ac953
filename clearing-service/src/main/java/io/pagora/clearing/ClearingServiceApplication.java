package io.pagora.clearing;

import io.pagora.service.config.ServiceDefaults;
import io.pagora.service.kafka.KafkaClientMetricsConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.kafka.autoconfigure.metrics.KafkaMetricsAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * The clearing service: consumes requested payments, settles each exactly once in the ledger
 * (reserve all legs, ask the receiving bank, post or void) and publishes one outcome per payment.
 */
// Kafka client metrics are bound by service-support's KafkaClientMetricsConfiguration (5 s refresh), not Boot's.
@SpringBootApplication(exclude = KafkaMetricsAutoConfiguration.class)
@Import({ServiceDefaults.class, KafkaClientMetricsConfiguration.class})
@ConfigurationPropertiesScan
public class ClearingServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(ClearingServiceApplication.class, args);
    }
}
