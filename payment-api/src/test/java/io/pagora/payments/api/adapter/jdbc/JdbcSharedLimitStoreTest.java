package io.pagora.payments.api.adapter.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.application.limits.SharedLimitStore.Grant;
import io.pagora.payments.api.application.limits.SharedLimitStore.Lease;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestPostgres;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The shared limits' statements on a real PostgreSQL: the bucket refills only up to the burst less what the live
 * instances hold, so a bucket and the holdings together never admit more than the burst at once; and two instances
 * creating the same new buckets, in different orders, never deadlock.
 */
@ServerBacked
class JdbcSharedLimitStoreTest {

    static final long LIVE_MILLIS = 60_000;

    TestPostgres.Database database;
    JdbcTemplate jdbc;
    JdbcSharedLimitStore store;
    UUID instance = UUID.randomUUID();

    @BeforeEach
    void setUp() {
        database = TestPostgres.freshDatabase();
        jdbc = new JdbcTemplate(database.dataSource());
        Flyway.configure()
                .dataSource(database.dataSource())
                .schemas("payment_api")
                .defaultSchema("payment_api")
                .locations("classpath:db/payment-api")
                .load()
                .migrate();
        store = new JdbcSharedLimitStore(jdbc);
        store.heartbeat(instance, LIVE_MILLIS);
    }

    @AfterEach
    void tearDown() {
        database.close();
    }

    static Lease lease(String participant, long want, long kept, long burst, double refillPerSecond) {
        return new Lease("payments", participant, want, 0, 0, kept, burst, refillPerSecond);
    }

    @Test
    void tokensAnInstanceHoldsAreNotRefilledInTheStoreAsWell() throws InterruptedException {
        long burst = 100;
        double refillPerSecond = 1_000;
        Grant whole = store.lease(instance, LIVE_MILLIS, List.of(lease("bank-1", burst, 0, burst, refillPerSecond)))
                .getFirst();
        assertThat(whole.granted()).as("a new bucket starts full").isEqualTo(burst);

        // The store's clock runs on: at 1,000 a second, 200 ms would refill the bucket to its burst.
        TimeUnit.MILLISECONDS.sleep(200);
        // The instance spends 51 of its 100 at once and asks for them again.
        Grant topUp = store.lease(instance, LIVE_MILLIS, List.of(lease("bank-1", 51, 49, burst, refillPerSecond)))
                .getFirst();
        assertThat(topUp.granted())
                .as("the 100 held since were the whole bucket: nothing refilled meanwhile, so"
                        + " 49 held + 51 spent + this grant is the burst at most")
                .isZero();

        TimeUnit.MILLISECONDS.sleep(20);
        Grant refilled = store.lease(instance, LIVE_MILLIS, List.of(lease("bank-1", 51, 49, burst, refillPerSecond)))
                .getFirst();
        assertThat(refilled.granted()).as("once said, the spent tokens refill").isPositive();
        assertThat(jdbc.queryForObject(
                        "SELECT held FROM payment_api.participant_limit_leases WHERE instance_id = ?",
                        Long.class,
                        instance))
                .isEqualTo(49 + refilled.granted());
    }

    @Test
    void whatAGoneInstanceHeldNoLongerCounts() throws InterruptedException {
        store.lease(instance, LIVE_MILLIS, List.of(lease("bank-2", 10, 0, 10, 0.001)));
        UUID other = UUID.randomUUID();
        store.heartbeat(other, LIVE_MILLIS);
        assertThat(store.lease(other, LIVE_MILLIS, List.of(lease("bank-2", 10, 0, 10, 0.001)))
                        .getFirst()
                        .granted())
                .as("the first instance holds the burst")
                .isZero();

        store.leave(instance);
        TimeUnit.MILLISECONDS.sleep(50);
        assertThat(store.lease(other, LIVE_MILLIS, List.of(lease("bank-2", 10, 0, 10, 1_000)))
                        .getFirst()
                        .granted())
                .as("gone, its tokens with it: the bucket refills to the burst")
                .isEqualTo(10);
    }

    @Test
    void twoInstancesCreatingTheSameBucketsInOppositeOrdersDoNotDeadlock() {
        // Each new bucket's insert is slowed, so the two statements overlap row by row.
        jdbc.execute("""
                CREATE FUNCTION payment_api.slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN PERFORM pg_sleep(0.3); RETURN NEW; END $$;
                CREATE TRIGGER slow_insert BEFORE INSERT ON payment_api.participant_limit_buckets
                FOR EACH ROW EXECUTE FUNCTION payment_api.slow_insert();
                """);
        UUID other = UUID.randomUUID();
        store.heartbeat(other, LIVE_MILLIS);
        JdbcSharedLimitStore otherStore = new JdbcSharedLimitStore(jdbc);
        List<Lease> forward =
                List.of(lease("bank-a", 1, 0, 10, 1), lease("bank-b", 1, 0, 10, 1), lease("bank-c", 1, 0, 10, 1));
        List<Lease> backward = forward.reversed();

        try (ExecutorService both = Executors.newFixedThreadPool(2)) {
            CompletableFuture<List<Grant>> first =
                    CompletableFuture.supplyAsync(() -> store.lease(instance, LIVE_MILLIS, forward), both);
            CompletableFuture<List<Grant>> second =
                    CompletableFuture.supplyAsync(() -> otherStore.lease(other, LIVE_MILLIS, backward), both);

            assertThat(first.orTimeout(30, TimeUnit.SECONDS).join())
                    .extracting(Grant::granted)
                    .containsOnly(1L);
            assertThat(second.orTimeout(30, TimeUnit.SECONDS).join())
                    .extracting(Grant::granted)
                    .containsOnly(1L);
        }
    }
}
