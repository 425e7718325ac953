package io.pagora.settlement.application;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.TransferResult;
import io.pagora.settlement.domain.ChainState;
import io.pagora.settlement.domain.LegId;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.SettlementPlan;
import io.pagora.settlement.domain.VoidCause;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Settles payments in batches through the {@link Ledger} port: one ledger request per up to
 * {@link Ledger#BATCH_SIZE_MAX} transfers, never one request per payment. A payment's chain is never
 * split across two requests, so it commits or fails as a whole.
 *
 * <p>Every method is idempotent: calling it again with the same payments (after a crash, a timeout,
 * a redelivery) reproduces the same transfer ids and reports the same outcome.
 */
public final class Settlement {

    private final Ledger ledger;
    private final int pendingTimeoutSeconds;

    public Settlement(Ledger ledger, int pendingTimeoutSeconds) {
        Check.that(pendingTimeoutSeconds > 0, "pending timeout must be positive: %d", pendingTimeoutSeconds);
        this.ledger = ledger;
        this.pendingTimeoutSeconds = pendingTimeoutSeconds;
    }

    /**
     * Phase 1: reserve every payment's chain (all legs pending). One outcome per payment, in order. An
     * alarm (an id exists with other fields) is checked against the ledger first: a chain this payment
     * reserved earlier, with another timeout, is its reservation.
     */
    public List<ReservationOutcome> reserve(List<Payment> payments) {
        List<ReservationOutcome> outcomes = execute(payments, plan -> plan.pendingChain(pendingTimeoutSeconds),
                ReservationOutcome::classify);
        return askLedgerAbout(payments, outcomes, ReservationOutcome.IntegrityAlarm.class, ReservationOutcome::fromLedger);
    }

    /** Phase 2, accepted: post every payment's chain. */
    public List<ResolutionOutcome> post(List<Payment> payments) {
        List<ResolutionOutcome> outcomes = execute(payments, SettlementPlan::postChain,
                results -> ResolutionOutcome.classify(results, null));
        return askLedgerAbout(payments, outcomes, ResolutionOutcome.IntegrityAlarm.class, ResolutionOutcome::fromLedger);
    }

    /**
     * Phase 2, refused or unanswered: void every payment's chain for {@code cause}. A chain voided
     * earlier for the other cause keeps that cause: the first void decides the outcome.
     */
    public List<ResolutionOutcome> voidAll(List<Payment> payments, VoidCause cause) {
        List<ResolutionOutcome> outcomes = execute(payments, plan -> plan.voidChain(cause),
                results -> ResolutionOutcome.classify(results, cause));
        return askLedgerAbout(payments, outcomes, ResolutionOutcome.IntegrityAlarm.class, ResolutionOutcome::fromLedger);
    }

    /** What the ledger holds for each payment's chain, in order; one lookup per ledger batch of ids. */
    public List<ChainState> inspect(List<Payment> payments) {
        List<ChainState> states = new ArrayList<>(payments.size());
        int paymentsPerLookup = Ledger.BATCH_SIZE_MAX / (LegId.LEGS_MAX * LegId.Phase.values().length);
        for (int from = 0; from < payments.size(); from += paymentsPerLookup) {
            List<SettlementPlan> plans = payments.subList(from, Math.min(payments.size(), from + paymentsPerLookup))
                    .stream().map(SettlementPlan::of).toList();
            List<Id128> ids = plans.stream().flatMap(plan -> ChainState.idsOf(plan).stream()).toList();
            Map<Id128, Transfer> found = new HashMap<>();
            ledger.lookupTransfers(ids).forEach(transfer -> found.put(transfer.id(), transfer));
            plans.forEach(plan -> states.add(ChainState.of(plan, found)));
        }
        Check.that(states.size() == payments.size(), "one chain state per payment");
        return states;
    }

    /**
     * Whether each payment's chain is already posted or voided, from its first leg's post and void ids only (one
     * lookup of two ids per payment, per ledger batch): chains are linked, so the first leg's resolution is the
     * chain's. The expiry path asks this of every instructed payment, most of which an answer resolved.
     */
    public List<Boolean> resolved(List<PaymentId> payments) {
        List<Boolean> resolved = new ArrayList<>(payments.size());
        int paymentsPerLookup = Ledger.BATCH_SIZE_MAX / 2;
        for (int from = 0; from < payments.size(); from += paymentsPerLookup) {
            List<PaymentId> slice = payments.subList(from, Math.min(payments.size(), from + paymentsPerLookup));
            List<Id128> ids = new ArrayList<>(slice.size() * 2);
            for (PaymentId payment : slice) {
                ids.add(LegId.of(payment, LegId.Phase.POST, 1));
                ids.add(LegId.of(payment, LegId.Phase.VOID, 1));
            }
            java.util.Set<Id128> found = new java.util.HashSet<>();
            ledger.lookupTransfers(ids).forEach(transfer -> found.add(transfer.id()));
            for (PaymentId payment : slice) {
                resolved.add(found.contains(LegId.of(payment, LegId.Phase.POST, 1))
                        || found.contains(LegId.of(payment, LegId.Phase.VOID, 1)));
            }
        }
        return resolved;
    }

    /**
     * The payments whose chains the ledger holds reserved under these ids, read back from their pending legs (one
     * lookup per ledger batch of ids): the payer, payee and amount an answer to the payment must settle. An id
     * without a chain of this scheme's (never reserved, or not a payment id) is absent from the map.
     */
    public Map<PaymentId, Payment> reservedPayments(List<PaymentId> ids) {
        Map<PaymentId, Payment> payments = new HashMap<>();
        int paymentsPerLookup = Ledger.BATCH_SIZE_MAX / 2;
        for (int from = 0; from < ids.size(); from += paymentsPerLookup) {
            List<PaymentId> slice = ids.subList(from, Math.min(ids.size(), from + paymentsPerLookup));
            List<Id128> legIds = new ArrayList<>(slice.size() * 2);
            for (PaymentId id : slice) {
                legIds.add(LegId.of(id, LegId.Phase.PENDING, 1));
                legIds.add(LegId.of(id, LegId.Phase.PENDING, LegId.LEGS_MAX));
            }
            Map<Id128, Transfer> found = new HashMap<>();
            ledger.lookupTransfers(legIds).forEach(transfer -> found.put(transfer.id(), transfer));
            for (PaymentId id : slice) {
                SettlementPlan.reservedPayment(id, found.get(LegId.of(id, LegId.Phase.PENDING, 1)),
                        found.get(LegId.of(id, LegId.Phase.PENDING, LegId.LEGS_MAX)))
                        .ifPresent(payment -> payments.put(id, payment));
            }
        }
        return payments;
    }

    /** Replaces each alarm by what the ledger says of its payment's chain (one lookup for all of them). */
    private <T, A extends T> List<T> askLedgerAbout(List<Payment> payments, List<T> outcomes, Class<A> alarmType,
            BiFunction<ChainState, A, T> resolve) {
        List<Integer> alarmed = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            if (alarmType.isInstance(outcomes.get(i))) {
                alarmed.add(i);
            }
        }
        if (alarmed.isEmpty()) {
            return outcomes;
        }
        List<ChainState> states = inspect(alarmed.stream().map(payments::get).toList());
        List<T> resolved = new ArrayList<>(outcomes);
        for (int i = 0; i < alarmed.size(); i++) {
            int index = alarmed.get(i);
            resolved.set(index, resolve.apply(states.get(i), alarmType.cast(outcomes.get(index))));
        }
        return resolved;
    }

    public int pendingTimeoutSeconds() {
        return pendingTimeoutSeconds;
    }

    private <T> List<T> execute(
            List<Payment> payments,
            Function<SettlementPlan, List<NewTransfer>> chainOf,
            Function<List<TransferResult>, T> classify) {
        List<T> outcomes = new ArrayList<>(payments.size());
        List<NewTransfer> request = new ArrayList<>(Math.min(Ledger.BATCH_SIZE_MAX, payments.size() * 3));
        List<Integer> chainSizes = new ArrayList<>();
        for (Payment payment : payments) {
            List<NewTransfer> chain = chainOf.apply(SettlementPlan.of(payment));
            if (request.size() + chain.size() > Ledger.BATCH_SIZE_MAX) {
                send(request, chainSizes, classify, outcomes);
            }
            request.addAll(chain);
            chainSizes.add(chain.size());
        }
        send(request, chainSizes, classify, outcomes);
        Check.that(outcomes.size() == payments.size(), "one outcome per payment");
        return outcomes;
    }

    private <T> void send(
            List<NewTransfer> request, List<Integer> chainSizes,
            Function<List<TransferResult>, T> classify, List<T> outcomes) {
        if (request.isEmpty()) {
            return;
        }
        List<TransferResult> results = ledger.createTransfers(request);
        Check.that(results.size() == request.size(), "one ledger result per transfer");
        int offset = 0;
        for (int size : chainSizes) {
            outcomes.add(classify.apply(results.subList(offset, offset + size)));
            offset += size;
        }
        request.clear();
        chainSizes.clear();
    }
}
