package io.pagora.settlement.contract;

import io.pagora.ledger.port.Ledger;
import io.pagora.testing.ledger.ReferenceLedger;
import org.junit.jupiter.api.DisplayName;

/** The {@link SettlementContract} on the reference model, the oracle the backends are checked against. */
@DisplayName("Settlement on the reference ledger meets the settlement contract")
class ReferenceSettlementContractTest extends SettlementContract {

    @Override
    protected Ledger openLedger() {
        return ReferenceLedger.onWallClock();
    }
}
