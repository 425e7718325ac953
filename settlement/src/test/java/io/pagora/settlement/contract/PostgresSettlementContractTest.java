package io.pagora.settlement.contract;

import io.pagora.ledger.adapter.postgres.PostgresLedger;
import io.pagora.ledger.port.Ledger;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestPostgres;
import org.junit.jupiter.api.DisplayName;

/** The {@link SettlementContract} on {@link PostgresLedger}, on a real PostgreSQL (one fresh database for the class). */
@DisplayName("Settlement on PostgresLedger meets the settlement contract")
@ServerBacked
class PostgresSettlementContractTest extends SettlementContract {

    @Override
    protected Ledger openLedger() {
        return PostgresLedger.migrateAndOpen(
                closeAfterLedger(TestPostgres.freshDatabase().dataSource()));
    }
}
