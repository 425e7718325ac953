package io.pagora.clearing.application.expiry;

import io.pagora.clearing.application.OutcomePublisher;
import io.pagora.clearing.application.Outcomes;
import io.pagora.clearing.application.Report;
import io.pagora.clearing.application.UnansweredPayments.Instructed;
import io.pagora.clearing.application.participants.InstructedEndToEndIds;
import io.pagora.events.PaymentOutcome;
import io.pagora.kernel.Check;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.ChainState;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.VoidCause;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expires instructed payments, parked by id with their end-to-end ids, once their chains could have timed out, and
 * gives the last word on those the expiry path failed on. Each outcome carries the end-to-end id parked with it.
 */
public final class ExpiringInstructed {

    private static final Logger log = LoggerFactory.getLogger(ExpiringInstructed.class);

    private final Settlement settlement;
    private final OutcomePublisher publisher;
    private final Outcomes outcomes;
    private final InstructedEndToEndIds endToEndIds;

    public ExpiringInstructed(
            Settlement settlement, OutcomePublisher publisher, Outcomes outcomes, InstructedEndToEndIds endToEndIds) {
        this.settlement = settlement;
        this.publisher = publisher;
        this.outcomes = outcomes;
        this.endToEndIds = endToEndIds;
    }

    /**
     * One lookup drops those an answer resolved (most of them), one reads the rest back from their pending legs, and
     * one void, for {@link VoidCause#UNANSWERED}, resolves them. The ledger arbitrates with a late answer as with any:
     * a chain the answer posted or voided first gets that outcome. A parked id whose chain the ledger does not hold
     * reserved is an integrity alarm (only reserved chains are instructed): logged, no outcome.
     */
    public Report expire(List<Instructed> parked) {
        Map<PaymentId, String> byId = distinct(parked);
        List<PaymentId> ids = List.copyOf(byId.keySet());
        if (ids.isEmpty()) {
            return Report.EMPTY;
        }
        List<Boolean> resolved = settlement.resolved(ids);
        List<PaymentId> open = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            if (!resolved.get(i)) {
                open.add(ids.get(i));
            }
        }
        List<Payment> payments = reservedInstructed(open);
        List<ResolutionOutcome> resolutions =
                payments.isEmpty() ? List.of() : settlement.voidAll(payments, VoidCause.UNANSWERED);
        Check.that(resolutions.size() == payments.size(), "one resolution outcome per payment");
        List<PaymentOutcome> results = new ArrayList<>(payments.size());
        for (int i = 0; i < payments.size(); i++) {
            Payment payment = payments.get(i);
            String endToEndId = endToEndIds.of(payment.id(), byId.get(payment.id()));
            switch (resolutions.get(i)) {
                case ResolutionOutcome.Posted ignored -> results.add(outcomes.settled(payment, endToEndId));
                case ResolutionOutcome.Voided voided ->
                    results.add(outcomes.voidedEarlier(payment, voided.cause(), endToEndId));
                case ResolutionOutcome.Expired ignored -> results.add(outcomes.expired(payment, endToEndId));
                case ResolutionOutcome.IntegrityAlarm alarm ->
                    log.error(
                            "INTEGRITY ALARM: payment {}: expiring, leg {}" + " answered {}; no outcome is published",
                            payment.id(),
                            alarm.leg(),
                            alarm.code());
            }
        }
        publisher.publish(results);
        return Report.of(ids.size(), results, 0, List.of());
    }

    /**
     * The expiry path's last word on instructed payments it could not expire (a bug, their record set aside): each
     * gets the outcome its chain shows, read back from its pending legs and inspected (two lookups, no write). Posted:
     * settled. Voided: for the cause its void legs record. Open: expired (its deadline has passed: the chain lapses in
     * the ledger, nothing moves). No reserved chain, or a chain holding another payment's transfers: an integrity
     * alarm, logged, no outcome.
     */
    public Report publishWhatTheLedgerHolds(List<Instructed> parked) {
        Map<PaymentId, String> byId = distinct(parked);
        List<Payment> payments = reservedInstructed(List.copyOf(byId.keySet()));
        List<ChainState> states = payments.isEmpty() ? List.of() : settlement.inspect(payments);
        Check.that(states.size() == payments.size(), "one chain state per payment");
        List<PaymentOutcome> results = new ArrayList<>(payments.size());
        for (int i = 0; i < payments.size(); i++) {
            Payment payment = payments.get(i);
            String endToEndId = endToEndIds.of(payment.id(), byId.get(payment.id()));
            switch (states.get(i)) {
                case ChainState.Posted ignored -> results.add(outcomes.settled(payment, endToEndId));
                case ChainState.Voided voided ->
                    results.add(outcomes.voidedEarlier(payment, voided.cause(), endToEndId));
                case ChainState.Open ignored -> results.add(outcomes.expired(payment, endToEndId));
                case ChainState.Absent ignored -> results.add(outcomes.expired(payment, endToEndId));
                case ChainState.Conflicting conflicting ->
                    log.error(
                            "INTEGRITY ALARM: payment {}: the ledger holds {};" + " no outcome is published",
                            payment.id(),
                            conflicting.detail());
            }
        }
        publisher.publish(results);
        return Report.of(byId.size(), results, 0, List.of());
    }

    /** The parked payments' distinct ids, in order, each with the first end-to-end id parked with it. */
    private static Map<PaymentId, String> distinct(List<Instructed> parked) {
        Map<PaymentId, String> byId = new LinkedHashMap<>();
        for (Instructed payment : parked) {
            String known = byId.get(payment.payment());
            if (known == null) {
                byId.put(payment.payment(), payment.endToEndId());
            }
        }
        return byId;
    }

    /**
     * The instructed payments the ledger holds reserved, read back from their pending legs, in the order of
     * {@code ids}; an id without a reserved chain is an integrity alarm (only reserved chains are instructed): logged.
     */
    private List<Payment> reservedInstructed(List<PaymentId> ids) {
        Map<PaymentId, Payment> reserved = ids.isEmpty() ? Map.of() : settlement.reservedPayments(ids);
        List<Payment> payments = new ArrayList<>(reserved.size());
        for (PaymentId id : ids) {
            Payment payment = reserved.get(id);
            if (payment == null) {
                log.error(
                        "INTEGRITY ALARM: payment {}: instructed and parked, yet the ledger holds no reserved chain"
                                + " of it; no outcome is published",
                        id);
                continue;
            }
            payments.add(payment);
        }
        return payments;
    }
}
