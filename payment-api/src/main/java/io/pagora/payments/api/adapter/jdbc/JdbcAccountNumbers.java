package io.pagora.payments.api.adapter.jdbc;

import io.pagora.kernel.Check;
import io.pagora.payments.api.application.AccountNumbers;
import org.springframework.jdbc.core.JdbcTemplate;

/** Account numbers from the PostgreSQL sequence {@code payment_api.account_numbers}: unique across instances. */
public final class JdbcAccountNumbers implements AccountNumbers {

    private final JdbcTemplate jdbc;

    public JdbcAccountNumbers(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public long next() {
        Long number = jdbc.queryForObject("SELECT nextval('payment_api.account_numbers')", Long.class);
        Check.that(number != null && number > 0, "sequence answers a positive number: %s", number);
        return number;
    }
}
