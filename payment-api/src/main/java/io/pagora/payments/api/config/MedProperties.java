package io.pagora.payments.api.config;

import io.pagora.payments.api.application.med.MedPolicy;
import io.pagora.settlement.domain.med.TraceLimits;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * MED infraction reports, {@code pagora.med.*} (docs/med.md). The policy's record checks the bounds.
 *
 * @param reportWindow how long after settlement a payment may be reported (PIX: 80 days)
 * @param analysisPeriod the payee's bank's time to analyse a report (PIX: 7 days; the demo shortens it)
 * @param holdBeyondAnalysis how much longer the holds stand: the refund's 72 + 24 hours
 * @param traceHopsMax payments away from the first receiving account the trace follows (0..5)
 * @param traceAccountsMax accounts a trace reaches in all (1..64)
 * @param traceOutflowsPerAccountMax transfers read per account after the money arrived (1..63)
 * @param escalationInterval how often reports past their deadline are looked for
 * @param refundTimeout how long a refund's reserved return lasts in the ledger before clearing instructs the victim's
 *     bank: it outlives a publication retried by the finisher and a broker outage of minutes
 */
@ConfigurationProperties("pagora.med")
public record MedProperties(
        @DefaultValue("80d") Duration reportWindow,
        @DefaultValue("7d") Duration analysisPeriod,
        @DefaultValue("96h") Duration holdBeyondAnalysis,
        @DefaultValue("3") int traceHopsMax,
        @DefaultValue("32") int traceAccountsMax,
        @DefaultValue("32") int traceOutflowsPerAccountMax,
        @DefaultValue("5s") Duration escalationInterval,
        @DefaultValue("10m") Duration refundTimeout) {

    public MedPolicy policy() {
        return new MedPolicy(
                reportWindow,
                analysisPeriod,
                holdBeyondAnalysis,
                new TraceLimits(traceHopsMax, traceAccountsMax, traceOutflowsPerAccountMax));
    }
}
