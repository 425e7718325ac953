package io.pagora.reporting.application;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.events.PaymentEvent;
import io.pagora.reporting.domain.IntegrityAlarm;
import io.pagora.reporting.domain.PollMerge;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Projects one poll of valid payment events: merge per payment, then one transaction. Alarms are
 * logged and counted only after the transaction committed, so a retried poll does not count twice
 * what it reports (a rerun after a commit finds the same conflict in the database and reports it
 * again, which is right: the alarm is about what the events say).
 */
public final class Projection {

    private static final Logger log = LoggerFactory.getLogger(Projection.class);

    private final ReadModelWriter writer;
    private final Counter conflictingOutcomes;
    private final Counter inconsistentEvents;
    private final Counter duplicateEvents;
    private final Counter projectedEvents;
    private final DistributionSummary pollSize;

    public Projection(ReadModelWriter writer, MeterRegistry registry) {
        this.writer = writer;
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

    /** @param events valid events of one poll, in delivery order; may be empty */
    public Outcome project(List<PaymentEvent> events) {
        if (events.isEmpty()) {
            return new Outcome(0, 0, 0, List.of(), 0, List.of());
        }
        PollMerge.Result merged = PollMerge.merge(events);
        ReadModelWriter.Applied applied = writer.apply(merged.facts());
        List<IntegrityAlarm> alarms = new ArrayList<>(merged.alarms());
        alarms.addAll(applied.alarms());
        for (IntegrityAlarm alarm : alarms) {
            log.error("integrity alarm {}: {}", alarm.kind(), alarm.message());
            switch (alarm.kind()) {
                case CONFLICTING_OUTCOME -> conflictingOutcomes.increment();
                case INCONSISTENT_EVENT -> inconsistentEvents.increment();
            }
        }
        duplicateEvents.increment(merged.duplicateEvents() + applied.redelivered());
        projectedEvents.increment(events.size());
        pollSize.record(events.size());
        return new Outcome(events.size(), merged.facts().size(), applied.finalized(), List.copyOf(alarms),
                applied.requestsVisible(), applied.finalStates());
    }

    /**
     * What a poll did (committed), for logs, tests and the adapter's metrics.
     *
     * @param requestsVisible payments whose request became visible with this poll
     * @param finalStates payments that became final with this poll
     */
    public record Outcome(int events, int payments, int finalized, List<IntegrityAlarm> alarms, int requestsVisible,
            List<ReadModelWriter.FinalStateReached> finalStates) {}
}
