package io.pagora.reporting.reconciliation.adapter;

import io.pagora.reporting.reconciliation.application.Reconciler;
import java.time.Duration;

/** The reconciliation settings the tests drive rounds with: one copy. */
final class ReconciliationFixtures {

    private ReconciliationFixtures() {}

    /**
     * Rounds that look back an hour, check balances at every round and report a disagreement at its second sight.
     *
     * @param legSamplePerMille payments per thousand whose legs are looked up in the ledger
     */
    static Reconciler.Settings settings(Duration finalWithin, int legSamplePerMille) {
        return settings(finalWithin, Duration.ofHours(1), legSamplePerMille);
    }

    /** As above, starting with the payments accepted {@code startLookback} ago. */
    static Reconciler.Settings settings(Duration finalWithin, Duration startLookback, int legSamplePerMille) {
        return settings(finalWithin, startLookback, legSamplePerMille, 1_020, 1_000);
    }

    /** As above, with ledger lookups of at most {@code legLookupIdsMax} ids, {@code ledgerRequestsPerSecondMax} a second. */
    static Reconciler.Settings settings(Duration finalWithin, Duration startLookback, int legSamplePerMille,
            int legLookupIdsMax, int ledgerRequestsPerSecondMax) {
        return new Reconciler.Settings(finalWithin, startLookback, 20_000, legSamplePerMille, legLookupIdsMax,
                ledgerRequestsPerSecondMax, 2_000, Duration.ZERO, Duration.ZERO, 50);
    }
}
