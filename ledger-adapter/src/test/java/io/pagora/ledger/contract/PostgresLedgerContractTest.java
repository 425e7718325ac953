package io.pagora.ledger.contract;

import io.pagora.ledger.adapter.postgres.PostgresLedger;
import io.pagora.ledger.port.Ledger;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestPostgres;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@link LedgerContract} against {@link PostgresLedger} on a real PostgreSQL (one fresh database
 * for the class), plus what only this backend has: an explicit expiry sweep, which must agree with
 * the lazy expiry the contract already checks.
 */
@DisplayName("PostgresLedger meets the ledger contract")
@ServerBacked
class PostgresLedgerContractTest extends LedgerContract {

    @Override
    protected Ledger openLedger() {
        return PostgresLedger.migrateAndOpen(
                closeAfterLedger(TestPostgres.freshDatabase().dataSource()));
    }

    @Test
    @Timeout(30)
    @DisplayName("after sweepExpired, expired reservations are released at once and post/void answer EXPIRED")
    void expiryAfterTheSweep() throws InterruptedException {
        expiryScenario(() -> ((PostgresLedger) ledger).sweepExpired(Ledger.BATCH_SIZE_MAX), false);
    }
}
