package io.pagora.reporting.reconciliation.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestPostgres;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** Two reporting instances, one reconciliation: the lease is one holder's at a time, and passes on when it goes. */
@ServerBacked
class AdvisoryLockLeaseTest {

    TestPostgres.Database database;
    AdvisoryLockLease first;
    AdvisoryLockLease second;

    @BeforeEach
    void start() {
        database = TestPostgres.freshDatabase();
        first = lease();
        second = lease();
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
    void a_released_lease_goes_to_the_next_instance_that_asks() {
        assertThat(first.held()).isTrue();
        first.release();
        assertThat(second.held()).isTrue();
        assertThat(first.held()).isFalse();
    }

    @Test
    void a_holder_whose_session_dies_loses_the_lease_to_the_other_and_knows_it() {
        assertThat(first.held()).isTrue();
        // As a killed instance's connection, or a database restart, ends the session: the lock goes with it.
        Integer terminated = new JdbcTemplate(database.dataSource()).queryForObject("""
                SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE application_name = 'pagora-reconciliation-lease' AND datname = current_database()) ended""",
                Integer.class);
        assertThat(terminated).isEqualTo(1);
        assertThat(second.held()).isTrue();
        assertThat(first.held()).as("the old holder notices and stands by").isFalse();
    }

    @Test
    void leases_for_other_purposes_do_not_exclude_each_other() {
        AdvisoryLockLease other = new AdvisoryLockLease(database.url(), database.user(), database.password(), 42);
        try {
            assertThat(first.held()).isTrue();
            assertThat(other.held()).isTrue();
        } finally {
            other.release();
        }
    }

    private AdvisoryLockLease lease() {
        return new AdvisoryLockLease(database.url(), database.user(), database.password(),
                AdvisoryLockLease.RECONCILIATION_KEY);
    }
}
