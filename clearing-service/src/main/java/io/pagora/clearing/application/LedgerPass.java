package io.pagora.clearing.application;

import io.pagora.events.PaymentOutcome;
import io.pagora.kernel.Check;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.ChainState;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass over a poll's distinct requests (clearing, or expiry), shared by the use cases: it reserves, resolves
 * and reads chains back in whole-batch ledger requests, and gathers, phase by phase, the outcomes it will publish
 * and the integrity alarms it raised.
 */
public final class LedgerPass {

    private static final Logger log = LoggerFactory.getLogger(LedgerPass.class);

    private final Settlement settlement;
    private final Outcomes outcomes;
    private final List<ClearingRequest> batch;
    private final List<PaymentOutcome> results;
    private final List<Alarm> alarms = new ArrayList<>();
    private final Set<ClearingRequest> reservedEarlier = new HashSet<>();

    private LedgerPass(Settlement settlement, Outcomes outcomes, List<ClearingRequest> batch) {
        this.settlement = settlement;
        this.outcomes = outcomes;
        this.batch = batch;
        this.results = new ArrayList<>(batch.size());
    }

    /** A pass over the requests' distinct payments. */
    public static LedgerPass over(List<ClearingRequest> requests, Settlement settlement, Outcomes outcomes) {
        return new LedgerPass(settlement, outcomes, distinct(requests));
    }

    public List<ClearingRequest> batch() {
        return batch;
    }

    /** The outcomes this pass will publish. */
    public List<PaymentOutcome> results() {
        return results;
    }

    /** Whether an earlier attempt (a redelivered poll) had reserved this request's chain. */
    public boolean reservedEarlier(ClearingRequest request) {
        return reservedEarlier.contains(request);
    }

    /** Reserves every chain of the pass; returns the reserved, and adds the refused and the alarms to the pass. */
    public List<ClearingRequest> reserve() {
        List<ReservationOutcome> reservations = settlement.reserve(payments(batch));
        Check.that(reservations.size() == batch.size(), "one reservation outcome per payment");
        List<ClearingRequest> reserved = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            ClearingRequest request = batch.get(i);
            switch (reservations.get(i)) {
                case ReservationOutcome.Reserved fresh -> {
                    reserved.add(request);
                    if (fresh.earlier()) {
                        reservedEarlier.add(request);
                    }
                }
                case ReservationOutcome.Refused refused ->
                    results.add(outcomes.rejected(
                            request,
                            Outcomes.reasonOf(refused.reason()),
                            refused.code().name()));
                case ReservationOutcome.IntegrityAlarm alarm ->
                    alarm(request, "reserving", alarm.leg(), alarm.code().name());
            }
        }
        return reserved;
    }

    /**
     * Maps each payment's resolution to its one outcome. A chain voided by the refusal path is REJECTED
     * and one voided by the expiry path EXPIRED, whichever path asks, because the void legs record their
     * cause and the first void wins; {@code refusalOf} gives the bank's reason when this batch has it.
     */
    public void resolve(
            List<ClearingRequest> requests,
            Function<List<Payment>, List<ResolutionOutcome>> phase2,
            IntFunction<String> refusalOf) {
        if (requests.isEmpty()) {
            return;
        }
        List<ResolutionOutcome> resolutions = phase2.apply(payments(requests));
        Check.that(resolutions.size() == requests.size(), "one resolution outcome per payment");
        for (int i = 0; i < requests.size(); i++) {
            ClearingRequest request = requests.get(i);
            switch (resolutions.get(i)) {
                case ResolutionOutcome.Posted ignored -> results.add(outcomes.settled(request));
                case ResolutionOutcome.Voided voided ->
                    results.add(outcomes.voided(request, voided.cause(), refusalOf.apply(i)));
                case ResolutionOutcome.Expired ignored -> results.add(outcomes.expired(request));
                case ResolutionOutcome.IntegrityAlarm alarm ->
                    alarm(request, "resolving", alarm.leg(), alarm.code().name());
            }
        }
    }

    /**
     * Adds the outcome a request's chain shows, read back with {@link Settlement#inspect}: posted settled, voided by
     * its cause, open or absent as {@code openOrAbsent} says (null: none), another payment's an alarm.
     */
    public void addWhatTheLedgerHolds(
            ClearingRequest request, ChainState state, Function<ClearingRequest, PaymentOutcome> openOrAbsent) {
        switch (state) {
            case ChainState.Posted ignored -> results.add(outcomes.settled(request));
            case ChainState.Voided voided -> results.add(outcomes.voided(request, voided.cause(), ""));
            case ChainState.Open ignored -> results.add(openOrAbsent.apply(request));
            case ChainState.Absent ignored -> results.add(openOrAbsent.apply(request));
            case ChainState.Conflicting conflicting -> alarm(request, "the ledger holds " + conflicting.detail());
        }
    }

    /** Raises an integrity alarm for a request: logged, no outcome published for it. */
    public void alarm(ClearingRequest request, String detail) {
        log.error(
                "INTEGRITY ALARM: payment {}: {}; no outcome is published for this request",
                request.payment().id(),
                detail);
        alarms.add(new Alarm(request, detail));
    }

    private void alarm(ClearingRequest request, String action, int leg, String code) {
        alarm(
                request,
                action + " leg " + leg + " answered " + code + ", and the ledger holds no chain of this payment's");
    }

    public Report report(int unanswered) {
        return Report.of(batch.size(), results, unanswered, alarms);
    }

    public static List<Payment> payments(List<ClearingRequest> requests) {
        return requests.stream().map(ClearingRequest::payment).toList();
    }

    /**
     * Drops exact duplicates (the same payment delivered twice in one poll): they would only repeat
     * the same ledger requests. A different payment under the same id stays, and the ledger raises
     * the integrity alarm for it.
     */
    private static List<ClearingRequest> distinct(List<ClearingRequest> requests) {
        Map<Payment, ClearingRequest> unique = new LinkedHashMap<>();
        for (ClearingRequest request : requests) {
            unique.putIfAbsent(request.payment(), request);
        }
        return List.copyOf(unique.values());
    }
}
