package io.pagora.settlement.contract;

import io.pagora.ledger.adapter.tigerbeetle.TigerBeetleLedger;
import io.pagora.ledger.port.Ledger;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TigerBeetleServer;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;

/**
 * The {@link SettlementContract} on {@link TigerBeetleLedger} on a real TigerBeetle server (pinned at
 * {@value TigerBeetleServer#VERSION}). Without a server the class is reported SKIPPED with the reason.
 */
@DisplayName("Settlement on TigerBeetleLedger meets the settlement contract")
@ServerBacked
class TigerBeetleSettlementContractTest extends SettlementContract {

    private static final TigerBeetleLedger.Config CONFIG = new TigerBeetleLedger.Config(Duration.ofSeconds(30), 32);

    @Override
    protected Ledger openLedger() {
        return TigerBeetleServer.requireShared()
                .openLedger((cluster, address) -> new TigerBeetleLedger(cluster, address, CONFIG));
    }
}
