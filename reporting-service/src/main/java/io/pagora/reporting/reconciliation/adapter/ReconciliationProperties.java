package io.pagora.reporting.reconciliation.adapter;

import io.pagora.events.ConsumerGroups;
import io.pagora.reporting.reconciliation.application.Reconciler;
import io.pagora.reporting.reconciliation.application.ReconciliationSettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code pagora.reporting.reconciliation.*}: the online reconciliation of the read model with the ledger
 * (see {@link Reconciler}). Off unless enabled; the local launcher enables it. The defaults live here only.
 *
 * <p>Cost at 12,000 payments/s (5 s rounds): every payment row is read once from the read model; its legs
 * are looked up for {@code leg-sample-per-mille} of them, in requests of at most {@code leg-lookup-ids-max}
 * transfer ids (2 % → 240 payments/s → 720 ids/s: one request a second), and every request the
 * reconciliation sends the ledger is spaced by {@code ledger-requests-per-second-max}. A balance check costs, per
 * {@code balance-interval}: one ledger read of at most {@code accounts-per-round} accounts (and every bank's two),
 * a few Kafka admin requests, the outcomes published while the pipeline caught up with that read (about one second
 * of them: ~12,000 records read, and one post leg per payment looked up, ~12 lookups), and one read-model snapshot.
 *
 * @param enabled run the reconciliation (it then opens the ledger configured by {@code pagora.ledger.*})
 * @param interval pause between rounds once every due payment is judged (a round with work left is followed soon)
 * @param finalWithin a payment must be final this long after it became visible (accepted, and projected): more
 *     than the pending timeout, the expiry margin and the projection's usual lag together
 * @param startLookback at start, payments accepted this long before are the first judged
 * @param paymentsPerRoundMax payment rows judged per round at most (a round with more left is followed after 200 ms:
 *     a backlog after an outage is worked off at a bounded pace, not in one burst on the shared database)
 * @param legSamplePerMille payments per thousand whose post legs are looked up in the ledger (1000: all)
 * @param legLookupIdsMax transfer ids per ledger lookup (three per payment; TigerBeetle takes up to 8,189)
 * @param ledgerRequestsPerSecondMax the reconciliation's ledger requests per second, at most
 * @param accountsPerRound ledger accounts whose balance is checked per balance check (all banks' accounts too)
 * @param balanceInterval the shortest time between two balance checks
 * @param pipelineWait how long a balance check waits, in one round, for the read model to hold every payment its
 *     ledger read could hold (then it waits round after round: a projection lag is lag, never a mismatch)
 * @param windowRecordsMax outcome records a balance check reads at most, published since its ledger read: more (a
 *     projection that lagged long, then caught up) and the check is given up for a new one
 * @param clearingGroupId clearing's consumer group on the requests topic (it posts the ledger from it): reporting's
 *     own setting, to be set with clearing's {@code pagora.clearing.group-id} when that is changed
 * @param clearingExpiryGroupId clearing's consumer group on its expiry topic: likewise, with clearing's
 *     {@code pagora.clearing.expiry-group-id}
 * @param detailsLogged mismatches logged with their details per round (all are counted)
 */
@ConfigurationProperties("pagora.reporting.reconciliation")
public record ReconciliationProperties(
        @DefaultValue("false") boolean enabled,
        @DefaultValue("5s") Duration interval,
        @DefaultValue("60s") Duration finalWithin,
        @DefaultValue("1h") Duration startLookback,
        @DefaultValue("30000") int paymentsPerRoundMax,
        @DefaultValue("20") int legSamplePerMille,
        @DefaultValue("1020") int legLookupIdsMax,
        @DefaultValue("10") int ledgerRequestsPerSecondMax,
        @DefaultValue("2000") int accountsPerRound,
        @DefaultValue("30s") Duration balanceInterval,
        @DefaultValue("5s") Duration pipelineWait,
        @DefaultValue("100000") int windowRecordsMax,
        @DefaultValue(ConsumerGroups.CLEARING) String clearingGroupId,
        @DefaultValue(ConsumerGroups.CLEARING_EXPIRY) String clearingExpiryGroupId,
        @DefaultValue("20") int detailsLogged) {

    public ReconciliationSettings settings() {
        return new ReconciliationSettings(
                finalWithin,
                startLookback,
                paymentsPerRoundMax,
                legSamplePerMille,
                legLookupIdsMax,
                ledgerRequestsPerSecondMax,
                accountsPerRound,
                balanceInterval,
                pipelineWait,
                windowRecordsMax,
                detailsLogged);
    }
}
