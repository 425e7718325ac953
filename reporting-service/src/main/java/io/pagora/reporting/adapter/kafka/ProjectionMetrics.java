package io.pagora.reporting.adapter.kafka;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pagora.reporting.application.Projection;
import io.pagora.reporting.application.ReadModelWriter.FinalStateReached;
import io.pagora.reporting.domain.IntegrityAlarm;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.service.metrics.LatencyHistograms;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * How far behind the read model is, measured when a poll's transaction has committed:
 * <ul>
 *   <li>{@value #ROWS_PROJECTED} (counter; {@code kind=requested|outcome}): payments whose request, or final
 *       state, became visible — once per payment, however often its events are delivered;
 *   <li>{@value #SETTLED_TO_VISIBLE} (timer): from a settlement (the PaymentSettled's occurredAt, clearing's
 *       clock) to its commit in the read model;
 *   <li>{@value #ACCEPT_TO_VISIBLE} (timer): from acceptance (payment-api's 202) to the commit of the final
 *       state, whatever it is — the whole pipeline as a client polling GET /payments/{id} sees it;
 *   <li>{@value #PAYMENTS_COMPLETED} (counter; {@code writes=once|twice}): payments whose row became complete
 *       (request and final state), inserted so because both met in one poll's window, or completed by a second write
 *       of the row an earlier poll inserted (the share of twice is what the window did not catch).
 * </ul>
 * A sample is never negative: a clock behind another service's counts as zero. And what each committed
 * poll held: valid events projected, duplicates, poll size, and its integrity alarms by kind.
 */
final class ProjectionMetrics {

    static final String ROWS_PROJECTED = "pagora.reporting.rows.projected";
    static final String SETTLED_TO_VISIBLE = "pagora.reporting.settled.to.visible";
    static final String ACCEPT_TO_VISIBLE = "pagora.reporting.accept.to.visible";
    static final String PAYMENTS_COMPLETED = "pagora.reporting.payments.completed";

    private final Clock clock;
    private final Counter requestsProjected;
    private final Counter outcomesProjected;
    private final Timer settledToVisible;
    private final Timer acceptToVisible;
    private final Counter writtenOnce;
    private final Counter writtenTwice;
    private final Counter conflictingOutcomes;
    private final Counter inconsistentEvents;
    private final Counter duplicateEvents;
    private final Counter projectedEvents;
    private final DistributionSummary pollSize;

    ProjectionMetrics(MeterRegistry registry, Clock clock) {
        this.clock = clock;
        this.requestsProjected = Counter.builder(ROWS_PROJECTED)
                .description("Payments whose request (kind=requested) or final state (kind=outcome) became visible")
                .tag("kind", "requested")
                .register(registry);
        this.outcomesProjected = Counter.builder(ROWS_PROJECTED)
                .description("Payments whose request (kind=requested) or final state (kind=outcome) became visible")
                .tag("kind", "outcome")
                .register(registry);
        this.settledToVisible = LatencyHistograms.timer(
                        SETTLED_TO_VISIBLE, "From a payment's settlement to its commit in the read model")
                .register(registry);
        this.acceptToVisible = LatencyHistograms.timer(
                        ACCEPT_TO_VISIBLE,
                        "From a payment's acceptance to the commit of its final state in the read model")
                .register(registry);
        this.writtenOnce = Counter.builder(PAYMENTS_COMPLETED)
                .description("Payments whose read-model row became complete, in one write (writes=once) or two (twice)")
                .tag("writes", "once")
                .register(registry);
        this.writtenTwice = Counter.builder(PAYMENTS_COMPLETED)
                .description("Payments whose read-model row became complete, in one write (writes=once) or two (twice)")
                .tag("writes", "twice")
                .register(registry);
        this.conflictingOutcomes = Counter.builder("pagora.reporting.conflicting.outcomes")
                .description("Outcomes that contradict a payment's projected final state (ignored; integrity alarm)")
                .register(registry);
        this.inconsistentEvents = Counter.builder("pagora.reporting.inconsistent.events")
                .description("Events whose payer, payee or amount contradict the projected payment (integrity alarm)")
                .register(registry);
        this.duplicateEvents = Counter.builder("pagora.reporting.duplicate.events")
                .description("Redelivered events that changed nothing")
                .register(registry);
        this.projectedEvents = Counter.builder("pagora.reporting.projected.events")
                .description("Valid events projected (duplicates included)")
                .register(registry);
        this.pollSize = DistributionSummary.builder("pagora.reporting.poll.events")
                .description("Valid events per projected poll (one transaction each)")
                .register(registry);
    }

    void committed(Projection.Outcome outcome) {
        if (outcome.events() > 0) {
            pollSize.record(outcome.events());
        }
        projectedEvents.increment(outcome.events());
        duplicateEvents.increment(outcome.duplicates());
        for (IntegrityAlarm alarm : outcome.alarms()) {
            switch (alarm.kind()) {
                case CONFLICTING_OUTCOME -> conflictingOutcomes.increment();
                case INCONSISTENT_EVENT -> inconsistentEvents.increment();
            }
        }
        Instant visible = clock.instant();
        requestsProjected.increment(outcome.requestsVisible());
        outcomesProjected.increment(outcome.finalStates().size());
        writtenOnce.increment(outcome.writes().once());
        writtenTwice.increment(outcome.writes().twice());
        for (FinalStateReached reached : outcome.finalStates()) {
            acceptToVisible.record(nonNegative(Duration.between(reached.acceptedAt(), visible)));
            if (reached.status() == PaymentStatus.SETTLED) {
                settledToVisible.record(nonNegative(Duration.between(reached.finalAt(), visible)));
            }
        }
    }

    private static Duration nonNegative(Duration duration) {
        return duration.isNegative() ? Duration.ZERO : duration;
    }
}
