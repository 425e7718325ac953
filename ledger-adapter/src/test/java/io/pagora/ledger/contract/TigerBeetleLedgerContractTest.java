package io.pagora.ledger.contract;

import io.pagora.ledger.adapter.tigerbeetle.TigerBeetleLedger;
import io.pagora.ledger.domain.Ledger;
import io.pagora.ledger.testsupport.TigerBeetleServer;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;

/**
 * The {@link LedgerContract} against {@link TigerBeetleLedger} on a real TigerBeetle 0.16.30, the
 * semantics' own source: this run is what keeps the contract honest. Without a server (see
 * {@link TigerBeetleServer}) the whole class is reported SKIPPED with the reason.
 */
@DisplayName("TigerBeetleLedger meets the ledger contract")
class TigerBeetleLedgerContractTest extends LedgerContract {

    /** Enough in-flight requests for the 16-thread races; generous deadline for a fresh replica. */
    static final TigerBeetleLedger.Config CONFIG = new TigerBeetleLedger.Config(Duration.ofSeconds(30), 32);

    @Override
    protected Ledger openLedger() {
        TigerBeetleServer server = TigerBeetleServer.requireShared();
        return new TigerBeetleLedger(server.clusterId(), server.address(), CONFIG);
    }
}
