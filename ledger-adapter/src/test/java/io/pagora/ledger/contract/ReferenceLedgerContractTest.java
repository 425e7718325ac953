package io.pagora.ledger.contract;

import io.pagora.ledger.port.Ledger;
import io.pagora.testing.ledger.ReferenceLedger;
import org.junit.jupiter.api.DisplayName;

/**
 * The oracle itself meets the whole {@link LedgerContract} (on the wall clock), the same suite real TigerBeetle and
 * the PostgreSQL ledger pass: a disagreement between the model and a backend ({@link RandomizedLedgerTest}) is then
 * the backend's. No server: it runs in the unit lane.
 */
@DisplayName("the reference model meets the ledger contract")
class ReferenceLedgerContractTest extends LedgerContract {

    @Override
    protected Ledger openLedger() {
        return ReferenceLedger.onWallClock();
    }
}
