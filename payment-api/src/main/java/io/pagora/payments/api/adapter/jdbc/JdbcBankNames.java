package io.pagora.payments.api.adapter.jdbc;

import io.pagora.kernel.Check;
import io.pagora.payments.api.application.administration.BankNames;
import io.pagora.settlement.domain.BankId;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/** Bank names in {@code payment_api.banks}; the first registration's name wins. */
public final class JdbcBankNames implements BankNames {

    private static final String REGISTER = """
            WITH inserted AS (
                INSERT INTO payment_api.banks (ispb, name) VALUES (?, ?)
                ON CONFLICT (ispb) DO NOTHING
                RETURNING name
            )
            SELECT name, true FROM inserted
            UNION ALL
            SELECT name, false FROM payment_api.banks WHERE ispb = ?
            """;

    private static final String NAME = "SELECT name FROM payment_api.banks WHERE ispb = ?";

    private final JdbcTemplate jdbc;

    public JdbcBankNames(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Stored register(BankId bank, String name) {
        // A concurrent first registration may commit mid-statement (then neither half sees it): ask again.
        for (int attempt = 0; attempt < JdbcIdempotencyKeys.ATTEMPTS_MAX; attempt++) {
            List<Stored> rows = jdbc.query(
                    REGISTER,
                    (row, n) -> new Stored(row.getString(1), row.getBoolean(2)),
                    bank.ispb(),
                    name,
                    bank.ispb());
            if (!rows.isEmpty()) {
                return rows.getFirst();
            }
        }
        Check.that(false, "bank %s neither inserted nor found", bank);
        throw new AssertionError();
    }

    @Override
    public Optional<String> nameOf(BankId bank) {
        return jdbc.query(NAME, (row, n) -> row.getString(1), bank.ispb()).stream()
                .findFirst();
    }
}
