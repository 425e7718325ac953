package io.pagora.clearing.adapter.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pagora.clearing.application.OutcomePublisher;
import io.pagora.events.PaymentExpired;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentSettled;
import io.pagora.events.ReturnReason;
import io.pagora.kernel.Id128;
import io.pagora.service.metrics.LatencyHistograms;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PaymentId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The outcome port, metered. When {@link OutcomePublisher#publish} returns, Kafka has acknowledged every
 * outcome: that is the moment a payment's chain counts as resolved ({@link PendingChains}) and the moment
 * {@value #ACCEPT_TO_SETTLED} ends for a settled payment — from {@code acceptedAt} (payment-api's 202) to
 * the acknowledged {@code PaymentSettled}. A payment cleared again publishes its outcome again and is timed
 * again — a redelivered batch (a crash between publishing and committing) or a client's retry with the same
 * Idempotency-Key, which payment-api re-publishes: so this timer and {@code pagora.clearing.outcomes} count
 * publications, while reporting's {@code pagora.reporting.*} meters count each payment once.
 */
public final class MeteredOutcomePublisher implements OutcomePublisher {

    public static final String ACCEPT_TO_SETTLED = "pagora.clearing.accept.to.settled";
    /** Expiries per receiving bank: its answer did not come before the pending timeout. */
    public static final String EXPIRED = "pagora.clearing.expired";
    /**
     * Returns (devoluções) by PIX reason and outcome (SETTLED, REJECTED, EXPIRED), as published: 4 × 3 series. How
     * many were asked for, and how many payment-api refused at once, is payment-api's {@code pagora.returns.requested}.
     */
    public static final String RETURNS = "pagora.clearing.returns";

    private final OutcomePublisher delegate;
    private final PendingChains pending;
    private final Clock clock;
    private final Timer acceptToSettled;
    private final MeterRegistry registry;

    public MeteredOutcomePublisher(
            OutcomePublisher delegate, PendingChains pending, Clock clock, MeterRegistry registry) {
        this.delegate = delegate;
        this.pending = pending;
        this.clock = clock;
        this.registry = registry;
        this.acceptToSettled = LatencyHistograms.timer(
                        ACCEPT_TO_SETTLED, "From the payment's acceptance to its PaymentSettled acknowledged by Kafka")
                .register(registry);
        // Every series up front (a closed set), so a dashboard shows zeros before the first return.
        for (ReturnReason reason : ReturnReason.values()) {
            for (String status : List.of("SETTLED", "REJECTED", "EXPIRED")) {
                returns(reason, status);
            }
        }
    }

    private Counter returns(ReturnReason reason, String status) {
        return Counter.builder(RETURNS)
                .description("Returns by PIX reason and outcome (publications)")
                .tag("reason", reason.name())
                .tag("outcome", status)
                .register(registry);
    }

    @Override
    public void publish(List<PaymentOutcome> outcomes, Set<String> payerOnly) {
        delegate.publish(outcomes, payerOnly);
        Instant acknowledged = clock.instant();
        List<PaymentId> resolved = new ArrayList<>(outcomes.size());
        for (PaymentOutcome outcome : outcomes) {
            resolved.add(PaymentId.parse(outcome.paymentId()));
            if (outcome.returnOf() != null) {
                returns(outcome.returnOf().reason(), outcome.status()).increment();
            }
            if (outcome instanceof PaymentSettled settled) {
                Duration latency = Duration.between(settled.acceptedAt(), acknowledged);
                // A clock behind payment-api's would give a negative latency: it is a zero, not a skipped sample.
                acceptToSettled.record(latency.isNegative() ? Duration.ZERO : latency);
            } else if (outcome instanceof PaymentExpired expired) {
                String bank = ChartOfAccounts.bankOf(Id128.parse(expired.payeeAccountId()))
                        .map(BankId::toString)
                        .orElse("none");
                Counter.builder(EXPIRED)
                        .description("Payments expired for want of their receiving bank's answer" + " (publications)")
                        .tag("bank", bank)
                        .register(registry)
                        .increment();
            }
        }
        pending.resolved(resolved);
    }
}
