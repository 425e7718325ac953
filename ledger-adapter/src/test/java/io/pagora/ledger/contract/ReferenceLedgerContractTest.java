package io.pagora.ledger.contract;

import io.pagora.ledger.domain.Ledger;

/** TEMPORARY: the contract against the reference model, to check the suite itself. */
class ReferenceLedgerContractTest extends LedgerContract {
    @Override
    protected Ledger openLedger() {
        return ReferenceLedger.onWallClock();
    }
}
