package io.pagora.payments.api.application.med;

import io.pagora.kernel.Check;
import io.pagora.settlement.domain.med.TraceLimits;
import java.time.Duration;

/**
 * MED's deadlines and the trace's limits (docs/med.md).
 *
 * @param reportWindow how long after settlement a payment may be reported (PIX: 80 days)
 * @param analysisPeriod how long the payee's bank has to analyse a report (PIX: 7 days)
 * @param holdBeyondAnalysis how long the holds outlive the analysis deadline: the payer's bank's 72 hours to ask
 *     for the refund and the payee's bank's 24 to pay it (96 hours), and the time an escalated report waits
 */
public record MedPolicy(
        Duration reportWindow, Duration analysisPeriod, Duration holdBeyondAnalysis, TraceLimits limits) {

    /** TigerBeetle's timeouts are 32-bit seconds: a hold lapses within about 136 years, and here within a year. */
    static final Duration HOLD_MAX = Duration.ofDays(365);

    public MedPolicy {
        Check.that(!reportWindow.isNegative() && !reportWindow.isZero(), "a report window: %s", reportWindow);
        Check.that(!analysisPeriod.isNegative() && !analysisPeriod.isZero(), "an analysis period: %s", analysisPeriod);
        Check.that(!holdBeyondAnalysis.isNegative(), "holds outlive the analysis: %s", holdBeyondAnalysis);
        Check.that(
                analysisPeriod.plus(holdBeyondAnalysis).compareTo(HOLD_MAX) <= 0,
                "a hold lapses within %s: %s",
                HOLD_MAX,
                analysisPeriod.plus(holdBeyondAnalysis));
    }

    public Duration hold() {
        return analysisPeriod.plus(holdBeyondAnalysis);
    }
}
