package io.pagora.reporting.reconciliation.adapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestPostgres;
import java.time.Duration;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** Two reporting instances, one reconciliation: the lease is one holder's at a time, and passes on when it goes. */
@ServerBacked
class ExpiringLeaseTest {

    /** How often an instance asks, as ReconciliationJob does every interval; the lease lasts three. */
    static final long INTERVAL_MILLIS = 500;

    static final Duration DURATION = Duration.ofMillis(3 * INTERVAL_MILLIS);

    TestPostgres.Database database;
    JdbcTemplate jdbc;
    ExpiringLease first;
    ExpiringLease second;

    @BeforeEach
    void start() {
        database = TestPostgres.freshDatabase();
        Flyway.configure()
                .dataSource(database.dataSource())
                .schemas("reporting")
                .defaultSchema("reporting")
                .locations("classpath:db/reporting")
                .load()
                .migrate();
        jdbc = new JdbcTemplate(database.dataSource());
        first = lease(ExpiringLease.RECONCILIATION);
        second = lease(ExpiringLease.RECONCILIATION);
    }

    @AfterEach
    void stop() {
        first.release();
        second.release();
        database.close();
    }

    @Test
    void only_one_instance_holds_the_lease_and_keeps_it() {
        assertThat(first.held()).isTrue();
        assertThat(second.held()).isFalse();
        assertThat(first.held()).as("asked again, the holder still holds it").isTrue();
        assertThat(second.held()).isFalse();
    }

    @Test
    void a_holder_that_renews_every_interval_keeps_the_lease_past_its_duration() throws Exception {
        assertThat(first.held()).isTrue();
        for (int round = 0; round < 8; round++) {
            Thread.sleep(INTERVAL_MILLIS); // time passes as between two rounds: eight intervals outlast the lease
            assertThat(first.held()).as("renewed at round %s", round).isTrue();
            assertThat(second.held()).as("asking at round %s", round).isFalse();
        }
    }

    @Test
    void a_released_lease_goes_to_the_next_instance_that_asks() {
        assertThat(first.held()).isTrue();
        first.release();
        assertThat(second.held()).isTrue();
        assertThat(first.held()).isFalse();
    }

    @Test
    void a_holder_that_freezes_with_its_connection_open_loses_the_lease_within_a_few_intervals() throws Exception {
        assertThat(first.held()).isTrue();
        // Frozen (SIGSTOP, a long pause, a cut without FIN): it renews no more, and its sessions stay open.
        // The other instance, asking every interval, leads within a few intervals.
        Duration interval = Duration.ofMillis(INTERVAL_MILLIS);
        await().atMost(interval.multipliedBy(10))
                .pollInSameThread()
                .pollDelay(interval)
                .pollInterval(interval)
                .until(second::held);
        assertThat(first.held())
                .as("the frozen holder, woken, knows it lost before another round")
                .isFalse();
        assertThat(second.held()).isTrue();
        assertThat(jdbc.queryForObject(
                        "SELECT generation FROM reporting.reconciliation_lease WHERE name = ?",
                        Long.class,
                        ExpiringLease.RECONCILIATION))
                .as("each holder its generation")
                .isEqualTo(2);
    }

    @Test
    void a_woken_holder_whose_lease_lapsed_but_was_not_taken_still_holds_it() throws Exception {
        assertThat(first.held()).isTrue();
        Thread.sleep(DURATION.toMillis() + INTERVAL_MILLIS); // frozen past its lease's end, on purpose
        assertThat(first.held()).as("nobody else ran a round meanwhile").isTrue();
        assertThat(second.held()).isFalse();
    }

    @Test
    void leases_for_other_purposes_do_not_exclude_each_other() {
        ExpiringLease other = lease("other");
        try {
            assertThat(first.held()).isTrue();
            assertThat(other.held()).isTrue();
        } finally {
            other.release();
        }
    }

    private ExpiringLease lease(String name) {
        return new ExpiringLease(jdbc, name, DURATION);
    }
}
