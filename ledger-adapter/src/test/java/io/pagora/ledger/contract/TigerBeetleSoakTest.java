package io.pagora.ledger.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.pagora.kernel.Check;
import io.pagora.ledger.adapter.tigerbeetle.TigerBeetleLedger;
import io.pagora.ledger.port.Ledger;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TigerBeetleServer;
import io.pagora.testing.ledger.MoneyInvariants;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.security.SecureRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * A soak of the contract workload on one TigerBeetle server: {@code pagora.soak.rounds} (default
 * {@value #ROUNDS_DEFAULT}) full rounds, each the whole {@link TigerBeetleLedgerContractTest} (run again
 * through the JUnit launcher, every test of it must pass, none skipped) and then a seeded randomized
 * workload of {@code pagora.soak.batches} batches ({@link RandomizedLedgerTest.Run}, a new seed per round)
 * that must agree with the reference model. Each round ends with the money invariants: every contract test
 * ends with {@link MoneyInvariants#check} over its accounts, and the randomized run ends with them plus
 * nothing left pending.
 *
 * <p>Why it exists: the 0.16.30 server can panic ({@code reached unreachable code},
 * {@code src/lsm/table_memory.zig:104}) or hang under these suites; the state that breaks is the LSM's,
 * which grows with every round on the same server, so several rounds in a row are what would show such a
 * regression of a future server pin. Should the server die, the harness fails the
 * round at once with the server's log tail. SKIPPED (with the reason) when no TigerBeetle can be had.
 */
@DisplayName("TigerBeetle soak: rounds of the contract and randomized workloads on one server")
@ServerBacked
class TigerBeetleSoakTest {

    private static final int ROUNDS_DEFAULT = 5;
    private static final int ROUNDS_MAX = 200;
    private static final int BATCHES_MAX = 100_000;
    private static final int ROUNDS = Integer.getInteger("pagora.soak.rounds", ROUNDS_DEFAULT);
    private static final int BATCHES = Integer.getInteger("pagora.soak.batches", 400);

    @Test
    @Timeout(3600) // An absolute bound: each call is bounded by the ledger's 30 s deadline, a round by its tests'.
    void everyRoundPassesTheContractAndTheRandomizedWorkloadWithItsInvariants() throws InterruptedException {
        Check.that(ROUNDS >= 1 && ROUNDS <= ROUNDS_MAX, "pagora.soak.rounds must be 1..%d: %d", ROUNDS_MAX, ROUNDS);
        Check.that(
                BATCHES >= 1 && BATCHES <= BATCHES_MAX, "pagora.soak.batches must be 1..%d: %d", BATCHES_MAX, BATCHES);
        TigerBeetleServer server = TigerBeetleServer.requireShared();
        System.out.printf(
                "[TigerBeetleSoakTest] %d rounds of the contract + %d randomized batches on %s%n",
                ROUNDS, BATCHES, server.description());
        long soakStartNanos = System.nanoTime();
        for (int round = 1; round <= ROUNDS; round++) {
            long roundStartNanos = System.nanoTime();
            long contractTests = contractRound(round);
            long seed = new SecureRandom().nextLong();
            randomizedRound(server, round, seed);
            System.out.printf(
                    "[TigerBeetleSoakTest] round %d/%d passed in %d ms: %d contract tests, randomized seed=%d%n",
                    round, ROUNDS, millisSince(roundStartNanos), contractTests, seed);
        }
        System.out.printf(
                "[TigerBeetleSoakTest] %d rounds passed in %d s%n", ROUNDS, millisSince(soakStartNanos) / 1000);
    }

    /** The whole contract class once; returns how many of its tests passed (all of them, or this fails). */
    private static long contractRound(int round) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(
                LauncherDiscoveryRequestBuilder.request()
                        .selectors(selectClass(TigerBeetleLedgerContractTest.class))
                        .build(),
                listener);
        TestExecutionSummary summary = listener.getSummary();
        String context = "round " + round + " of the contract on TigerBeetle";
        assertThat(summary.getFailures())
                .as(context + ": failures\n" + failures(summary))
                .isEmpty();
        assertThat(summary.getTestsAbortedCount())
                .as(context + ": tests aborted (skipped at run time)")
                .isZero();
        assertThat(summary.getTestsSkippedCount())
                .as(context + ": tests skipped")
                .isZero();
        assertThat(summary.getTestsSucceededCount())
                .as(context + ": tests passed")
                .isPositive()
                .isEqualTo(summary.getTestsFoundCount());
        return summary.getTestsSucceededCount();
    }

    private static void randomizedRound(TigerBeetleServer server, int round, long seed) throws InterruptedException {
        RandomizedLedgerTest.Recording recording;
        try (Ledger ledger = server.openLedger(
                (cluster, address) -> new TigerBeetleLedger(cluster, address, TigerBeetleLedgerContractTest.CONFIG))) {
            recording = new RandomizedLedgerTest.Run(seed, BATCHES, ledger, null, false).execute();
        }
        assertThat(recording.modelDisagreements())
                .as(
                        "round %d, seed=%d (re-run: -Dpagora.seed=%d with RandomizedLedgerTest): TigerBeetle vs the model",
                        round, seed, seed)
                .isEmpty();
    }

    private static String failures(TestExecutionSummary summary) {
        StringWriter text = new StringWriter();
        summary.printFailuresTo(new PrintWriter(text), 20);
        return text.toString();
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
