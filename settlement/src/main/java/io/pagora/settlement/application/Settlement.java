package io.pagora.settlement.application;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferResult;
import io.pagora.settlement.domain.ChainState;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.LegId;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.SettlementPlan;
import io.pagora.settlement.domain.VoidCause;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
        Map<PaymentId, ReservationOutcome.IntegrityAlarm> unopened = openReturnables(payments);
        List<Payment> reservable = payments.stream()
                .filter(payment -> !unopened.containsKey(payment.id()))
                .toList();
        List<ReservationOutcome> outcomes =
                execute(reservable, plan -> plan.pendingChain(pendingTimeoutSeconds), ReservationOutcome::classify);
        outcomes = askLedgerAbout(
                reservable, outcomes, ReservationOutcome.IntegrityAlarm.class, ReservationOutcome::fromLedger);
        if (unopened.isEmpty()) {
            return outcomes;
        }
        List<ReservationOutcome> all = new ArrayList<>(payments.size());
        int next = 0;
        for (Payment payment : payments) {
            ReservationOutcome alarm = unopened.get(payment.id());
            all.add(alarm != null ? alarm : outcomes.get(next++));
        }
        return all;
    }

    /**
     * Before the returns of a batch reserve: the returns control account and each original's returnable account
     * (one request; {@code exists} is fine), then each original's opening, its amount credited once (one request;
     * {@code exists} is fine: an earlier return opened it). An opening the ledger holds with other fields is an
     * integrity alarm for the returns of that original, which are not reserved; an account it holds with other
     * fields stops the batch (the chart of accounts is wrong: nothing can be settled against it).
     */
    private Map<PaymentId, ReservationOutcome.IntegrityAlarm> openReturnables(List<Payment> payments) {
        Map<PaymentId, SettlementPlan> openings = new LinkedHashMap<>();
        for (Payment payment : payments) {
            if (payment.isReturn()) {
                openings.putIfAbsent(payment.returnOf().original(), SettlementPlan.of(payment));
            }
        }
        if (openings.isEmpty()) {
            return Map.of();
        }
        Check.that(
                openings.size() < Ledger.BATCH_SIZE_MAX,
                "returned originals fit one ledger request: %d",
                openings.size());
        List<NewAccount> accounts = new ArrayList<>(openings.size() + 1);
        accounts.add(ChartOfAccounts.returnsControlAccount());
        openings.keySet().forEach(original -> accounts.add(ChartOfAccounts.returnableAccount(original)));
        List<AccountResult> created = ledger.createAccounts(accounts);
        for (int i = 0; i < accounts.size(); i++) {
            Check.that(
                    created.get(i) == AccountResult.OK || created.get(i) == AccountResult.EXISTS,
                    "account %s answered %s: the ledger holds another account under its id",
                    accounts.get(i).id(),
                    created.get(i));
        }
        List<NewTransfer> transfers = openings.values().stream()
                .map(SettlementPlan::returnableOpening)
                .toList();
        List<TransferResult> opened = ledger.createTransfers(transfers);
        Check.that(opened.size() == transfers.size(), "one ledger result per opening");
        Map<PaymentId, TransferResult> failedByOriginal = new HashMap<>();
        int i = 0;
        for (PaymentId original : openings.keySet()) {
            TransferResult result = opened.get(i++);
            if (!result.isSuccess()) {
                failedByOriginal.put(original, result);
            }
        }
        Map<PaymentId, ReservationOutcome.IntegrityAlarm> alarms = new HashMap<>();
        for (Payment payment : payments) {
            TransferResult failed =
                    payment.isReturn() ? failedByOriginal.get(payment.returnOf().original()) : null;
            if (failed != null) {
                alarms.put(payment.id(), new ReservationOutcome.IntegrityAlarm(0, failed));
            }
        }
        return alarms;
    }

    /** Phase 2, accepted: post every payment's chain. */
    public List<ResolutionOutcome> post(List<Payment> payments) {
        List<ResolutionOutcome> outcomes = execute(
                payments, SettlementPlan::postChain, (plan, results) -> ResolutionOutcome.classify(results, null));
        return askLedgerAbout(
                payments, outcomes, ResolutionOutcome.IntegrityAlarm.class, ResolutionOutcome::fromLedger);
    }

    /**
     * Phase 2, refused or unanswered: void every payment's chain for {@code cause}. A chain voided
     * earlier for the other cause keeps that cause: the first void decides the outcome.
     */
    public List<ResolutionOutcome> voidAll(List<Payment> payments, VoidCause cause) {
        List<ResolutionOutcome> outcomes = execute(
                payments, plan -> plan.voidChain(cause), (plan, results) -> ResolutionOutcome.classify(results, cause));
        return askLedgerAbout(
                payments, outcomes, ResolutionOutcome.IntegrityAlarm.class, ResolutionOutcome::fromLedger);
    }

    /** What the ledger holds for each payment's chain, in order; one lookup per ledger batch of ids. */
    public List<ChainState> inspect(List<Payment> payments) {
        List<ChainState> states = new ArrayList<>(payments.size());
        int paymentsPerLookup = Ledger.BATCH_SIZE_MAX / (LegId.LEGS_MAX * LegId.Phase.values().length);
        for (int from = 0; from < payments.size(); from += paymentsPerLookup) {
            List<SettlementPlan> plans =
                    payments.subList(from, Math.min(payments.size(), from + paymentsPerLookup)).stream()
                            .map(SettlementPlan::of)
                            .toList();
            List<Id128> ids = plans.stream()
                    .flatMap(plan -> ChainState.idsOf(plan).stream())
                    .toList();
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
     * lookup per ledger batch of ids): the payer, payee, amount and (a return) original an answer to the payment must
     * settle. An id without a chain of this scheme's (never reserved, or not a payment id) is absent from the map.
     */
    public Map<PaymentId, Payment> reservedPayments(List<PaymentId> ids) {
        Map<PaymentId, Payment> payments = new HashMap<>();
        int paymentsPerLookup = Ledger.BATCH_SIZE_MAX / LegId.LEGS_MAX;
        for (int from = 0; from < ids.size(); from += paymentsPerLookup) {
            List<PaymentId> slice = ids.subList(from, Math.min(ids.size(), from + paymentsPerLookup));
            List<Id128> legIds = new ArrayList<>(slice.size() * LegId.LEGS_MAX);
            for (PaymentId id : slice) {
                for (int leg = 1; leg <= LegId.LEGS_MAX; leg++) {
                    legIds.add(LegId.of(id, LegId.Phase.PENDING, leg));
                }
            }
            Map<Id128, Transfer> found = new HashMap<>();
            ledger.lookupTransfers(legIds).forEach(transfer -> found.put(transfer.id(), transfer));
            for (PaymentId id : slice) {
                SettlementPlan.reservedPayment(id, found).ifPresent(payment -> payments.put(id, payment));
            }
        }
        return payments;
    }

    /** Replaces each alarm by what the ledger says of its payment's chain (one lookup for all of them). */
    private <T, A extends T> List<T> askLedgerAbout(
            List<Payment> payments, List<T> outcomes, Class<A> alarmType, BiFunction<ChainState, A, T> resolve) {
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
            BiFunction<SettlementPlan, List<TransferResult>, T> classify) {
        List<T> outcomes = new ArrayList<>(payments.size());
        List<NewTransfer> request = new ArrayList<>(Math.min(Ledger.BATCH_SIZE_MAX, payments.size() * 3));
        List<SettlementPlan> plans = new ArrayList<>();
        for (Payment payment : payments) {
            SettlementPlan plan = SettlementPlan.of(payment);
            List<NewTransfer> chain = chainOf.apply(plan);
            if (request.size() + chain.size() > Ledger.BATCH_SIZE_MAX) {
                send(request, plans, classify, outcomes);
            }
            request.addAll(chain);
            plans.add(plan);
        }
        send(request, plans, classify, outcomes);
        Check.that(outcomes.size() == payments.size(), "one outcome per payment");
        return outcomes;
    }

    private <T> void send(
            List<NewTransfer> request,
            List<SettlementPlan> plans,
            BiFunction<SettlementPlan, List<TransferResult>, T> classify,
            List<T> outcomes) {
        if (request.isEmpty()) {
            return;
        }
        List<TransferResult> results = ledger.createTransfers(request);
        Check.that(results.size() == request.size(), "one ledger result per transfer");
        int offset = 0;
        for (SettlementPlan plan : plans) {
            outcomes.add(classify.apply(plan, results.subList(offset, offset + plan.legCount())));
            offset += plan.legCount();
        }
        request.clear();
        plans.clear();
    }
}
