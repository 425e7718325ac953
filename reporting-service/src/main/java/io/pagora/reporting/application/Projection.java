package io.pagora.reporting.application;

import io.pagora.events.PaymentEvent;
import io.pagora.reporting.domain.IntegrityAlarm;
import io.pagora.reporting.domain.PollMerge;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Projects one poll of valid payment events: merge per payment, then one transaction. Alarms are
 * logged, and reported in the {@link Outcome} for the adapter to count, only after the transaction
 * committed, so a retried poll does not count twice what it reports (a rerun after a commit finds the
 * same conflict in the database and reports it again, which is right: the alarm is about what the
 * events say).
 */
public final class Projection {

    private static final Logger log = LoggerFactory.getLogger(Projection.class);

    private final ReadModelWriter writer;

    public Projection(ReadModelWriter writer) {
        this.writer = writer;
    }

    /** @param events valid events of one poll, in delivery order; may be empty */
    public Outcome project(List<PaymentEvent> events) {
        if (events.isEmpty()) {
            return new Outcome(0, 0, 0, 0, List.of(), 0, List.of(), ReadModelWriter.Writes.NONE);
        }
        PollMerge.Result merged = PollMerge.merge(events);
        ReadModelWriter.Applied applied = writer.apply(merged.facts());
        List<IntegrityAlarm> alarms = new ArrayList<>(merged.alarms());
        alarms.addAll(applied.alarms());
        for (IntegrityAlarm alarm : alarms) {
            log.error("integrity alarm {}: {}", alarm.kind(), alarm.message());
        }
        return new Outcome(
                events.size(),
                merged.duplicateEvents() + applied.redelivered(),
                merged.facts().size(),
                applied.finalized(),
                List.copyOf(alarms),
                applied.requestsVisible(),
                applied.finalStates(),
                applied.writes());
    }

    /**
     * What a poll did (committed), for logs, tests and the adapter's metrics.
     *
     * @param duplicates redelivered events that changed nothing
     * @param requestsVisible payments whose request became visible with this poll
     * @param finalStates payments that became final with this poll
     * @param writes payments whose row became complete with this poll, written once or twice
     */
    public record Outcome(
            int events,
            int duplicates,
            int payments,
            int finalized,
            List<IntegrityAlarm> alarms,
            int requestsVisible,
            List<ReadModelWriter.FinalStateReached> finalStates,
            ReadModelWriter.Writes writes) {}
}
