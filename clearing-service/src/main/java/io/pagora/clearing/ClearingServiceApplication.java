package io.pagora.clearing;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The clearing service: consumes requested payments, settles each exactly once in the ledger
 * (reserve all legs, ask the receiving bank, post or void) and publishes one outcome per payment.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ClearingServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(ClearingServiceApplication.class, args);
    }
}
