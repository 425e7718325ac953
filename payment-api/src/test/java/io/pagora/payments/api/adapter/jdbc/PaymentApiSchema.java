package io.pagora.payments.api.adapter.jdbc;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/** payment-api's schema migrated on a test database, to the newest version or to an older one. */
final class PaymentApiSchema {

    private PaymentApiSchema() {}

    /** @param target the version to stop at, or null for the newest */
    static void migrate(DataSource dataSource, String target) {
        var configuration = Flyway.configure()
                .dataSource(dataSource)
                .schemas("payment_api")
                .defaultSchema("payment_api")
                .locations("classpath:db/payment-api");
        if (target != null) {
            configuration.target(target);
        }
        configuration.load().migrate();
    }
}
