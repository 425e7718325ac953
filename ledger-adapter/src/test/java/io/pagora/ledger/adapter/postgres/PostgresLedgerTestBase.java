package io.pagora.ledger.adapter.postgres;

import io.pagora.kernel.Id128;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestPostgres;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * A {@link PostgresLedger} of the test class's own, migrated on a fresh database (test-support's
 * {@link TestPostgres}), and random ids for the accounts and transfers a test creates.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ServerBacked
abstract class PostgresLedgerTestBase {

    /** The ledger code these tests create their accounts and transfers on. */
    static final int LEDGER = 986;

    PostgresLedger ledger;
    private TestPostgres.Database database;

    @BeforeAll
    void openLedger() {
        database = TestPostgres.freshDatabase();
        ledger = PostgresLedger.migrateAndOpen(database.dataSource());
    }

    @AfterAll
    void closeDatabase() {
        database.close();
    }

    /** A random id, never zero (its low half is odd). */
    static Id128 randomId() {
        return new Id128(
                ThreadLocalRandom.current().nextLong(),
                ThreadLocalRandom.current().nextLong() | 1);
    }
}
