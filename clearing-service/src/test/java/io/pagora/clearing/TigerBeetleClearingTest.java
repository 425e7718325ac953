package io.pagora.clearing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.testsupport.Books;
import io.pagora.clearing.testsupport.ClearingTestBase;
import io.pagora.clearing.testsupport.Faults;
import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Id128;
import io.pagora.ledger.adapter.Ledgers;
import io.pagora.ledger.port.Ledger;
import io.pagora.testing.LocalTigerBeetle;
import io.pagora.testing.ServerBacked;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The same clearing on a real TigerBeetle server (from {@code TIGERBEETLE_BIN}, pinned at 0.16.78 or
 * newer by {@link LocalTigerBeetle}; SKIPPED with that reason otherwise): a mixed batch (accepted,
 * refused, unanswered, on-us and interbank) where the process crashes right after the reservations are
 * applied, is restarted, and completes — TigerBeetle
 * answering the redelivered chains with {@code exists} and expiring the unanswered ones itself. The
 * books balance and every payment has one final state.
 */
@ServerBacked
class TigerBeetleClearingTest extends ClearingTestBase {

    private static LocalTigerBeetle tigerBeetle;

    @BeforeAll
    static void startTigerBeetle() {
        // Started only if configured; without a server each test is reported SKIPPED (see openTestLedger), not
        // the class silently counted as zero tests.
        tigerBeetle = LocalTigerBeetle.configuredBinary()
                .map(binary -> LocalTigerBeetle.start(binary, "TigerBeetleClearingTest"))
                .orElse(null);
    }

    @AfterAll
    static void stopTigerBeetle() {
        if (tigerBeetle != null) {
            tigerBeetle.close();
        }
    }

    @Override
    protected Ledger openTestLedger() {
        Assumptions.assumeTrue(tigerBeetle != null, LocalTigerBeetle.SKIP_REASON);
        Ledger ledger = Ledgers.open(
                new Ledgers.Settings(
                        "tigerbeetle", tigerBeetle.address(), LocalTigerBeetle.CLUSTER_ID, Duration.ofSeconds(10), 64),
                () -> {
                    throw new IllegalStateException("the TigerBeetle ledger needs no DataSource");
                });
        // Should the server die, the test's checks fail at once instead of each waiting out its deadline.
        tigerBeetle.closeOnDeath(ledger);
        return ledger;
    }

    @Override
    protected Map<String, String> properties() {
        Map<String, String> properties = super.properties();
        properties.put("pagora.ledger.backend", "tigerbeetle");
        properties.put("pagora.ledger.tigerbeetle.addresses", tigerBeetle.address());
        properties.put("pagora.ledger.tigerbeetle.cluster-id", "0");
        return properties;
    }

    @Test
    void aMixedBatchSurvivesACrashAfterReservationOnTigerBeetle() throws Exception {
        List<Id128> customers = world.fundedCustomersAtBothBanks(10_000_000_00L, 10, 1_000_00);
        List<PaymentRequested> payments = world.randomPayments(customers, 200, 7, 30_00);
        faults.ledger(Faults.Phase.RESERVE, Faults.When.AFTER, Faults.How.CRASH, 1);
        String[] mixedBank = {
            "pagora.clearing.bank.accept-rate=0.6",
            "pagora.clearing.bank.no-answer-rate=0.2",
            "pagora.clearing.pending-timeout=6s"
        };
        publish(payments);
        ConfigurableApplicationContext app = startClearing(mixedBank);
        awaitCrashAndClose(app);

        startClearing(mixedBank);
        Map<String, String> states = awaitSettledBooks(payments);
        Map<String, Long> census = Books.census(states);
        System.out.println("[TigerBeetleClearingTest] outcomes " + census);
        assertThat(census).containsKeys("SETTLED", "REJECTED", "EXPIRED");
        assertThat(ledger.backendName()).isEqualTo("tigerbeetle");
    }
}
