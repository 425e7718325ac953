package io.pagora.reporting.reconciliation.application;

import io.pagora.kernel.Check;
import io.pagora.ledger.port.Ledger;
import io.pagora.reporting.reconciliation.domain.LegSample;
import java.time.Duration;

/**
 * The reconciliation's settings, shared by its two checks (one copy: {@code ReconciliationProperties} binds them).
 *
 * @param finalWithin a payment must be final this long after it became visible (accepted and projected)
 * @param startLookback at start, payments accepted this long before are the first judged
 * @param paymentsPerRoundMax payment rows judged per round at most
 * @param legSamplePerMille payments per thousand whose post legs are looked up in the ledger
 * @param legLookupIdsMax transfer ids per ledger lookup (three per payment)
 * @param ledgerRequestsPerSecondMax the reconciliation's ledger requests per second, at most
 * @param accountsPerRound ledger accounts whose balance is checked per balance check (all banks' accounts too)
 * @param balanceInterval the shortest time between two balance checks
 * @param pipelineWait how long a balance check waits in one round for the read model to hold its ledger read
 * @param windowRecordsMax outcome records a balance check reads at most (published since its ledger read); with
 *     more (a projection that lagged long) it is given up and a new one starts
 * @param detailsMax mismatches kept with their details per round
 */
public record ReconciliationSettings(
        Duration finalWithin,
        Duration startLookback,
        int paymentsPerRoundMax,
        int legSamplePerMille,
        int legLookupIdsMax,
        int ledgerRequestsPerSecondMax,
        int accountsPerRound,
        Duration balanceInterval,
        Duration pipelineWait,
        int windowRecordsMax,
        int detailsMax) {

    public ReconciliationSettings {
        Check.that(
                finalWithin.isPositive()
                        && !startLookback.isNegative()
                        && !pipelineWait.isNegative()
                        && !balanceInterval.isNegative(),
                "reconciliation durations must not be negative: %s %s %s %s",
                finalWithin,
                startLookback,
                balanceInterval,
                pipelineWait);
        Check.that(
                windowRecordsMax >= 1 && windowRecordsMax <= 1_000_000,
                "window records must be 1..1000000: %d",
                windowRecordsMax);
        Check.that(
                paymentsPerRoundMax >= 1 && paymentsPerRoundMax <= 1_000_000,
                "payments per round must be 1..1000000: %d",
                paymentsPerRoundMax);
        Check.that(
                legSamplePerMille >= 0 && legSamplePerMille <= LegSample.PER_MILLE_ALL,
                "the leg sample must be 0..1000 per mille: %d",
                legSamplePerMille);
        Check.that(
                legLookupIdsMax >= 3 && legLookupIdsMax <= Ledger.BATCH_SIZE_MAX,
                "transfer ids per lookup must be 3..%d: %d",
                Ledger.BATCH_SIZE_MAX,
                legLookupIdsMax);
        Check.that(
                ledgerRequestsPerSecondMax >= 1 && ledgerRequestsPerSecondMax <= 10_000,
                "ledger requests per second must be 1..10000: %d",
                ledgerRequestsPerSecondMax);
        Check.that(
                accountsPerRound >= 1 && accountsPerRound <= Ledger.BATCH_SIZE_MAX,
                "accounts per round must be 1..%d: %d",
                Ledger.BATCH_SIZE_MAX,
                accountsPerRound);
        Check.that(detailsMax >= 1 && detailsMax <= 1_000, "details per round must be 1..1000: %d", detailsMax);
    }

    int paymentsPerLookup() {
        return legLookupIdsMax / 3;
    }
}
