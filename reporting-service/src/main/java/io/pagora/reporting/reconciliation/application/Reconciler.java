package io.pagora.reporting.reconciliation.application;

import io.pagora.ledger.port.Ledger;
import java.time.Clock;
import java.time.Instant;

/**
 * Compares the read model with the ledger, a bounded slice per {@link #round()}, reading the ledger itself (never
 * clearing's word), in requests of bounded size paced by {@link Pacer}, in two checks:
 * <ol>
 *   <li>{@link PaymentCheck}: every payment, in projection order, final in time and (for a sample) as the ledger
 *       posted it;
 *   <li>{@link BalanceCheck}: the balances of the ledger's accounts at a consistent cut, against the read model's
 *       totals, every {@code balanceInterval}.
 * </ol>
 * A step that throws ends its check's part of the round with what was judged before it kept: mismatches are counted
 * as each lookup is judged, and the cursors only move past judged work. Not thread-safe: one thread runs the rounds.
 */
public final class Reconciler {

    private final Clock clock;
    private final ReconciliationSettings settings;
    private final PaymentCheck payments;
    private final BalanceCheck balances;

    public Reconciler(
            Ledger ledger,
            ReconciliationReadModel readModel,
            PaymentPipeline pipeline,
            Clock clock,
            ReconciliationSettings settings) {
        this.clock = clock;
        this.settings = settings;
        PacedLedger paced = new PacedLedger(ledger, settings.ledgerRequestsPerSecondMax());
        PaymentJudge judge = new PaymentJudge(paced, settings.legLookupIdsMax());
        this.payments = new PaymentCheck(readModel, judge, settings, clock.instant());
        this.balances = new BalanceCheck(paced, readModel, pipeline, judge, settings);
    }

    /** One round: the payment check, then the balance check when due; a step that throws is recorded in the report. */
    public RoundReport round() {
        Instant now = clock.instant();
        RoundReport.Builder report = new RoundReport.Builder(settings.detailsMax());
        payments.run(now, report);
        balances.run(now, report);
        return report.build();
    }
}
