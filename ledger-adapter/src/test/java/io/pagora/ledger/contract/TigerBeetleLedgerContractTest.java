package io.pagora.ledger.contract;

import io.pagora.ledger.adapter.tigerbeetle.TigerBeetleLedger;
import io.pagora.ledger.port.Ledger;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TigerBeetleServer;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;

/**
 * The {@link LedgerContract} against {@link TigerBeetleLedger} on a real TigerBeetle server (pinned at
 * {@value TigerBeetleServer#VERSION}, through the 0.16.30 client), the semantics' own source: this run is
 * what keeps the contract honest. Without a server (see {@link TigerBeetleServer}) the whole class is
 * reported SKIPPED with the reason; if the server dies mid-run, every remaining test fails at once with
 * its log tail.
 */
@DisplayName("TigerBeetleLedger meets the ledger contract")
@ServerBacked
class TigerBeetleLedgerContractTest extends LedgerContract {

    /** Enough in-flight requests for the 16-thread races; generous deadline for a fresh replica. */
    static final TigerBeetleLedger.Config CONFIG = new TigerBeetleLedger.Config(Duration.ofSeconds(30), 32);

    @Override
    protected Ledger openLedger() {
        return TigerBeetleServer.requireShared()
                .openLedger((cluster, address) -> new TigerBeetleLedger(cluster, address, CONFIG));
    }
}
