package io.pagora.reporting.domain;

import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentExpired;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRejected;
import io.pagora.events.PaymentRequested;
import io.pagora.events.PaymentSettled;
import io.pagora.kernel.Id128;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Merges one poll's events into one {@link PaymentFacts} per payment, so the set-based upsert sees each
 * payment once (PostgreSQL's ON CONFLICT cannot touch a row twice in one statement, and a redelivered
 * event must be a no-op anyway).
 *
 * <p>Within the poll, events are taken in delivery order (a payment's outcomes share one partition,
 * keyed by payer, so that is production order): the first event gives the parties and amount, the first
 * PaymentRequested the request details, the first outcome the final state. A later outcome with the same
 * status and reason is a duplicate; a different one is an integrity alarm and is ignored.
 *
 * <p>Instants are truncated to microseconds, PostgreSQL's precision, so stored values equal what
 * cursors and responses carry.
 */
public final class PollMerge {

    private PollMerge() {}

    /** @param facts one per payment, ordered by payment id (a stable row lock order for the upsert) */
    public record Result(List<PaymentFacts> facts, List<IntegrityAlarm> alarms, int duplicateEvents) {}

    /** @param events valid events (see {@link EventRules}), in delivery order */
    public static Result merge(List<PaymentEvent> events) {
        Map<Id128, Builder> byPayment = new LinkedHashMap<>();
        List<IntegrityAlarm> alarms = new ArrayList<>();
        int duplicates = 0;
        for (PaymentEvent event : events) {
            Id128 paymentId = Id128.parse(event.paymentId());
            Builder builder = byPayment.get(paymentId);
            if (builder == null) {
                builder = new Builder(paymentId, event);
                byPayment.put(paymentId, builder);
            } else if (!builder.sameParties(event)) {
                alarms.add(IntegrityAlarm.inconsistentEvent(
                        paymentId.toString(),
                        PaymentFacts.describeParties(builder.payer, builder.payee, builder.amountCentavos),
                        PaymentFacts.describeParties(
                                Id128.parse(event.payerAccountId()),
                                Id128.parse(event.payeeAccountId()),
                                event.amountCentavos())));
            }
            if (builder.returnOf == null && event.returnOf() != null) {
                builder.returnOf = new PaymentFacts.ReturnLink(
                        Id128.parse(event.returnOf().originalPaymentId()),
                        event.returnOf().reason().name());
            }
            switch (event) {
                case PaymentRequested requested -> {
                    if (builder.request == null) {
                        builder.request = new PaymentFacts.Request(
                                EventRules.bounded(requested.currency()),
                                EventRules.bounded(requested.description()),
                                EventRules.bounded(requested.endToEndId()));
                    } else {
                        duplicates++;
                    }
                }
                case PaymentOutcome outcome -> {
                    FinalState state = finalState(outcome);
                    if (builder.outcome == null) {
                        builder.outcome = state;
                    } else if (builder.outcome.sameOutcomeAs(state.status(), state.reason())) {
                        duplicates++;
                    } else {
                        alarms.add(IntegrityAlarm.conflictingOutcomeInPoll(
                                paymentId.toString(), builder.outcome.describe(), state.describe()));
                    }
                }
            }
        }
        List<PaymentFacts> facts = new ArrayList<>(byPayment.size());
        for (Builder builder : byPayment.values()) {
            facts.add(builder.build());
        }
        facts.sort(Comparator.comparing(PaymentFacts::paymentId));
        return new Result(List.copyOf(facts), List.copyOf(alarms), duplicates);
    }

    static FinalState finalState(PaymentOutcome outcome) {
        Instant at = micros(outcome.occurredAt());
        return switch (outcome) {
            case PaymentSettled settled -> new FinalState(PaymentStatus.SETTLED, null, null, at);
            case PaymentRejected rejected ->
                new FinalState(
                        PaymentStatus.REJECTED, rejected.reason().name(), EventRules.bounded(rejected.detail()), at);
            case PaymentExpired expired -> new FinalState(PaymentStatus.EXPIRED, null, null, at);
        };
    }

    public static Instant micros(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MICROS);
    }

    private static final class Builder {
        final Id128 paymentId;
        final Id128 payer;
        final Id128 payee;
        final long amountCentavos;
        final Instant acceptedAt;
        PaymentFacts.Request request;
        FinalState outcome;
        PaymentFacts.ReturnLink returnOf;

        Builder(Id128 paymentId, PaymentEvent first) {
            this.paymentId = paymentId;
            this.payer = Id128.parse(first.payerAccountId());
            this.payee = Id128.parse(first.payeeAccountId());
            this.amountCentavos = first.amountCentavos();
            this.acceptedAt = micros(first.acceptedAt());
        }

        boolean sameParties(PaymentEvent event) {
            return payer.equals(Id128.parse(event.payerAccountId()))
                    && payee.equals(Id128.parse(event.payeeAccountId()))
                    && amountCentavos == event.amountCentavos();
        }

        PaymentFacts build() {
            return new PaymentFacts(paymentId, payer, payee, amountCentavos, acceptedAt, request, outcome, returnOf);
        }
    }
}
