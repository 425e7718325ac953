package io.pagora.payments;

import io.pagora.payments.api.config.PaymentApiConfiguration;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * payment-api: the command side of Pagora. Accepts payments (idempotently, per {@code Idempotency-Key})
 * and hands them to clearing through Kafka; administers participants (banks, customer accounts, funding)
 * directly on the ledger.
 */
@SpringBootApplication(scanBasePackageClasses = PaymentApiConfiguration.class) // wiring is explicit: see that class
@ConfigurationPropertiesScan
public class PaymentApiApplication {

    public static void main(String[] args) {
        SpringApplication.run(PaymentApiApplication.class, args);
    }
}
