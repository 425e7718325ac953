package io.pagora.reporting.adapter.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestPostgres;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Migration V4 drops the three indexes that covered the finalize's columns. A read model that already holds
 * payments keeps answering as it did: its banks' daily positions are summed once into bank_day_positions (sent to another
 * bank or outside the id scheme, received, on-us, per UTC day of final_at), and its REJECTED and EXPIRED payments are
 * listed in payments_not_settled; ACCEPTED rows, and SETTLED ones on another day, count nowhere they should not.
 */
@ServerBacked
class FinalizeWithoutIndexMigrationTest {

    TestPostgres.Database database;
    JdbcTemplate jdbc;

    @BeforeEach
    void setUp() {
        database = TestPostgres.freshDatabase();
        jdbc = new JdbcTemplate(database.dataSource());
    }

    @AfterEach
    void tearDown() {
        database.close();
    }

    @Test
    void positionsAndTheNotSettledListingAreFilledFromThePaymentsAlreadyProjected() {
        migrate("3");
        UUID rejected = UUID.randomUUID();
        UUID expired = UUID.randomUUID();
        insert(UUID.randomUUID(), 10, 20, 1_000, "SETTLED", "2031-05-17T00:00:00Z");
        insert(UUID.randomUUID(), 10, 30, 2_500, "SETTLED", "2031-05-17T23:59:59.999999Z");
        insert(UUID.randomUUID(), 20, 10, 700, "SETTLED", "2031-05-17T12:00:00Z");
        insert(UUID.randomUUID(), 10, 10, 5_000, "SETTLED", "2031-05-17T10:00:00Z");
        insert(UUID.randomUUID(), 10, null, 400, "SETTLED", "2031-05-17T11:00:00Z");
        insert(UUID.randomUUID(), null, 10, 60, "SETTLED", "2031-05-17T11:00:00Z");
        insert(UUID.randomUUID(), 10, 20, 9_999, "SETTLED", "2031-05-18T00:00:00Z");
        insert(rejected, 10, 20, 4_444, "REJECTED", "2031-05-17T13:00:00Z");
        insert(expired, 20, 10, 3_333, "EXPIRED", "2031-05-17T14:00:00Z");
        insert(UUID.randomUUID(), 10, 20, 2_222, "ACCEPTED", null);

        migrate(null);

        assertThat(position(10, "2031-05-17")).isEqualTo(List.of(3_900L, 3L, 760L, 2L, 5_000L, 1L));
        assertThat(position(20, "2031-05-17")).isEqualTo(List.of(700L, 1L, 1_000L, 1L, 0L, 0L));
        assertThat(position(30, "2031-05-17")).isEqualTo(List.of(0L, 0L, 2_500L, 1L, 0L, 0L));
        assertThat(position(10, "2031-05-18")).isEqualTo(List.of(9_999L, 1L, 0L, 0L, 0L, 0L));
        assertThat(position(20, "2031-05-18")).isEqualTo(List.of(0L, 0L, 9_999L, 1L, 0L, 0L));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM reporting.bank_day_positions", Long.class))
                .isEqualTo(5);
        List<Map<String, Object>> notSettled =
                jdbc.queryForList("SELECT status, payment_id FROM reporting.payments_not_settled ORDER BY status");
        assertThat(notSettled)
                .containsExactly(
                        Map.of("status", "EXPIRED", "payment_id", expired),
                        Map.of("status", "REJECTED", "payment_id", rejected));
    }

    private List<Long> position(int ispb, String day) {
        return jdbc.queryForObject(
                """
                SELECT ARRAY[sent_centavos, sent_count, received_centavos, received_count, on_us_centavos, on_us_count]
                FROM reporting.bank_day_positions WHERE bank_ispb = ? AND day = ?::date
                """, (row, n) -> List.of((Long[]) row.getArray(1).getArray()), ispb, day);
    }

    private void insert(
            UUID paymentId, Integer payerBank, Integer payeeBank, long amountCentavos, String status, String finalAt) {
        jdbc.update(
                """
                INSERT INTO reporting.payments (payment_id, payer_account_id, payee_account_id, payer_bank_ispb,
                        payee_bank_ispb, amount_centavos, accepted_at, status, reason, final_at, projected_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, '2031-05-17T00:00:00Z', ?, ?, ?::timestamptz, now(), now())
                """,
                paymentId,
                UUID.randomUUID(),
                UUID.randomUUID(),
                payerBank,
                payeeBank,
                amountCentavos,
                status,
                status.equals("REJECTED") ? "INSUFFICIENT_FUNDS" : null,
                finalAt);
    }

    private void migrate(String target) {
        var configuration = Flyway.configure()
                .dataSource(database.dataSource())
                .schemas("reporting")
                .defaultSchema("reporting")
                .locations("classpath:db/reporting");
        if (target != null) {
            configuration.target(target);
        }
        configuration.load().migrate();
    }
}
