package io.pagora.settlement.application;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferResult;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.SettlementPlan;
import io.pagora.settlement.domain.TransferCode;
import io.pagora.settlement.domain.med.FundsTrace;
import io.pagora.settlement.domain.med.HoldIds;
import io.pagora.settlement.domain.med.RefundOutcome;
import io.pagora.settlement.domain.med.TraceLimits;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cautionary holds on a reported payment's money (MED, docs/med.md), in the ledger: each a pending transfer from the
 * account holding the money to its bank's fraud holds account, with a timeout, so the customer cannot spend it and it
 * is released by itself if nobody decides. Ids derive from the report's ({@link HoldIds}): filing again, or
 * releasing again, makes the same transfers.
 */
public final class HoldingFunds {

    /** What a filing held, and the ledger requests it took. */
    public record Filed(FundsTrace trace, int ledgerRequests) {}

    private final Ledger ledger;
    private final TracingFunds tracing;

    /**
     * The banks whose fraud holds account this instance saw the ledger take: a hold needs no request to open it again.
     * At most one entry per bank.
     */
    private final Set<BankId> fraudHoldsOpened = ConcurrentHashMap.newKeySet();

    public HoldingFunds(Ledger ledger) {
        this.ledger = ledger;
        this.tracing = new TracingFunds(ledger);
    }

    /**
     * Traces {@code payment} up to {@code cutTimestamp} and holds, on each account, what it still has of what was
     * traced to it, for {@code timeoutSeconds}: {@link #plan}, then {@link #hold}. Filed before (its holds are in the
     * ledger, all of them, as one request made them): the trace rebuilt from them, nothing taken again.
     */
    public Filed file(PaymentId report, PaymentId payment, long cutTimestamp, TraceLimits limits, int timeoutSeconds) {
        int[] requests = {0};
        Ledger counted = new CountingLedger(ledger, requests);
        Map<Integer, Long> earlier = holdsOf(report, counted);
        if (!earlier.isEmpty()) {
            return new Filed(
                    new TracingFunds(counted).trace(payment, cutTimestamp, limits, hop -> heldBy(hop, earlier)),
                    requests[0]);
        }
        FundsTrace planned = plan(counted, payment, cutTimestamp, limits);
        return new Filed(hold(counted, report, planned, timeoutSeconds), requests[0]);
    }

    /**
     * The trace of {@code payment} up to {@code cutTimestamp}, each account holding what it has now of what was
     * traced to it (an account met twice gives what the first left). Takes nothing: a caller stores the plan first,
     * so that of two filings racing one plan is held.
     */
    public FundsTrace plan(PaymentId payment, long cutTimestamp, TraceLimits limits) {
        return plan(ledger, payment, cutTimestamp, limits);
    }

    private static FundsTrace plan(Ledger ledger, PaymentId payment, long cutTimestamp, TraceLimits limits) {
        Map<Id128, Long> left = new HashMap<>();
        return new TracingFunds(ledger).trace(payment, cutTimestamp, limits, hop -> {
            List<Id128> unread = hop.stream()
                    .map(FundsTrace.Node::account)
                    .filter(account -> !left.containsKey(account))
                    .distinct()
                    .toList();
            if (!unread.isEmpty()) {
                unread.forEach(account -> left.put(account, 0L));
                for (Account account : ledger.lookupAccounts(unread)) {
                    left.put(account.id(), Math.max(0, account.creditBalanceAvailable()));
                }
            }
            long[] held = new long[hop.size()];
            for (int i = 0; i < hop.size(); i++) {
                FundsTrace.Node node = hop.get(i);
                held[i] = Math.min(node.tracedCentavos(), left.get(node.account()));
                left.merge(node.account(), -held[i], Long::sum);
            }
            return held;
        });
    }

    /**
     * Takes the holds of {@code planned}, in one request, or two when a bank's fraud holds account is not known open
     * (the accounts, then every hold), and
     * answers the plan as the ledger took it: a hold refused because the customer spent the money between the
     * reading and the hold holds nothing, and what it would have held is not followed further. Taking them again
     * takes nothing twice (the ledger answers {@code exists}, or {@code id_already_failed} for a refused one).
     */
    public FundsTrace hold(PaymentId report, FundsTrace planned, int timeoutSeconds) {
        return hold(ledger, report, planned, timeoutSeconds);
    }

    private FundsTrace hold(Ledger ledger, PaymentId report, FundsTrace planned, int timeoutSeconds) {
        Check.that(timeoutSeconds > 0, "a hold lapses: %d s", timeoutSeconds);
        List<FundsTrace.Node> holding =
                planned.nodes().stream().filter(node -> node.heldCentavos() > 0).toList();
        if (holding.isEmpty()) {
            return planned;
        }
        Set<BankId> banks = new LinkedHashSet<>();
        holding.forEach(node -> banks.add(ChartOfAccounts.bankOf(node.account()).orElseThrow()));
        openFraudHolds(ledger, banks);
        List<TransferResult> results = ledger.createTransfers(holds(report, holding, timeoutSeconds));
        if (results.contains(TransferResult.CREDIT_ACCOUNT_NOT_FOUND)) {
            // A fraud holds account this instance saw the ledger take is gone: not a ledger this instance knows. An
            // alarm. The ledger keeps these ids failed: a later round opens the account again, and these holds answer
            // id_already_failed there, holding nothing, as a customer's spending would.
            fraudHoldsOpened.clear();
            throw new IllegalStateException("report " + report + ": a fraud holds account seen opened is missing from"
                    + " the ledger: " + results);
        }
        Set<Integer> refused = new java.util.HashSet<>();
        for (int i = 0; i < holding.size(); i++) {
            switch (results.get(i)) {
                case OK, EXISTS -> {}
                case EXCEEDS_CREDITS, ID_ALREADY_FAILED ->
                    refused.add(holding.get(i).position());
                default ->
                    throw new IllegalStateException("the ledger refused hold "
                            + HoldIds.hold(report, holding.get(i).position()) + " of report " + report + ": "
                            + results.get(i));
            }
        }
        if (refused.isEmpty()) {
            return planned;
        }
        return new FundsTrace(
                planned.payment(),
                planned.amountCentavos(),
                planned.cutTimestamp(),
                planned.nodes().stream()
                        .map(node -> refused.contains(node.position()) ? node.holding(0) : node)
                        .toList(),
                planned.truncated());
    }

    /** Opens the fraud holds accounts of {@code banks} not known open: one request, or none. */
    private void openFraudHolds(Ledger ledger, Set<BankId> banks) {
        List<BankId> unknown =
                banks.stream().filter(bank -> !fraudHoldsOpened.contains(bank)).toList();
        if (unknown.isEmpty()) {
            return;
        }
        List<AccountResult> opened = ledger.createAccounts(
                unknown.stream().map(ChartOfAccounts::fraudHoldsAccount).toList());
        Check.that(
                opened.stream().allMatch(AccountResult::isSuccess),
                "the ledger refused a fraud holds account: %s",
                opened);
        fraudHoldsOpened.addAll(unknown);
    }

    private static List<NewTransfer> holds(PaymentId report, List<FundsTrace.Node> holding, int timeoutSeconds) {
        List<NewTransfer> holds = new ArrayList<>(holding.size());
        for (FundsTrace.Node node : holding) {
            BankId bank = ChartOfAccounts.bankOf(node.account()).orElseThrow();
            holds.add(NewTransfer.pending(
                    HoldIds.hold(report, node.position()),
                    node.account(),
                    ChartOfAccounts.fraudHolds(bank),
                    node.heldCentavos(),
                    timeoutSeconds,
                    ChartOfAccounts.LEDGER_BRL,
                    TransferCode.CAUTIONARY_HOLD,
                    report.value()));
        }
        return holds;
    }

    /**
     * The trace of {@code report} as the ledger holds it: the same walk, each account holding what its hold transfer
     * holds (nothing where there is none). The same cut gives the same trace as the filing answered, unless a hold was
     * refused (the money spent between the reading and the hold): the rebuild then follows what it would have held.
     */
    public FundsTrace rebuild(PaymentId report, PaymentId payment, long cutTimestamp, TraceLimits limits) {
        Map<Integer, Long> stood = holdsOf(report, ledger);
        return tracing.trace(payment, cutTimestamp, limits, hop -> heldBy(hop, stood));
    }

    /** Each hold of {@code report} the ledger has, by position: one request. */
    private static Map<Integer, Long> holdsOf(PaymentId report, Ledger ledger) {
        List<Id128> ids = new ArrayList<>(HoldIds.POSITIONS_MAX);
        for (int position = 0; position < HoldIds.POSITIONS_MAX; position++) {
            ids.add(HoldIds.hold(report, position));
        }
        Map<Integer, Long> stood = new HashMap<>();
        for (Transfer hold : ledger.lookupTransfers(ids)) {
            stood.put((int) (hold.id().lo() & (HoldIds.POSITIONS_MAX - 1)), hold.amount());
        }
        return stood;
    }

    /** How a release went for each hold of the trace. */
    public enum Released {
        RELEASED,
        ALREADY_RELEASED,
        EXPIRED,
        ALREADY_POSTED,
        NONE
    }

    /** Voids every hold of {@code trace}: the held money is the customers' to spend again. One ledger request. */
    public List<Released> release(PaymentId report, FundsTrace trace) {
        List<FundsTrace.Node> held =
                trace.nodes().stream().filter(node -> node.heldCentavos() > 0).toList();
        if (held.isEmpty()) {
            return List.of();
        }
        List<TransferResult> results = ledger.createTransfers(held.stream()
                .map(node -> NewTransfer.voidPending(
                        HoldIds.release(report, node.position()), HoldIds.hold(report, node.position())))
                .toList());
        List<Released> released = new ArrayList<>(results.size());
        for (int i = 0; i < results.size(); i++) {
            released.add(
                    switch (results.get(i)) {
                        case OK -> Released.RELEASED;
                        case EXISTS, PENDING_TRANSFER_ALREADY_VOIDED -> Released.ALREADY_RELEASED;
                        case PENDING_TRANSFER_EXPIRED -> Released.EXPIRED;
                        case PENDING_TRANSFER_ALREADY_POSTED -> Released.ALREADY_POSTED;
                        case PENDING_TRANSFER_NOT_FOUND -> Released.NONE;
                        default ->
                            throw new IllegalStateException("the ledger refused the release of hold "
                                    + HoldIds.hold(report, held.get(i).position()) + ": " + results.get(i));
                    });
        }
        return released;
    }

    /**
     * One refund of an accepted report: hold {@code position} freed and {@code payment} reserved, in one linked chain.
     * The payment is a return of the reported payment (it carries the original's amount, which opens its returnable
     * account), from the held account to the victim, for at most what the hold holds; its id is {@link HoldIds#refund}.
     */
    public record Refund(int position, Payment payment) {
        public Refund {
            Check.that(
                    payment.isReturn() && payment.returnOf().originalAmountCentavos() > 0,
                    "a refund is a return that names its original's amount: %s",
                    payment);
        }
    }

    /**
     * Pays each refund from its hold, in two requests: the returns accounts, then the original's returnable opening
     * ({@code exists} after the first return) followed by every refund's chain: the hold's void linked before the
     * return's pending legs, so the freed money cannot be spent by anyone in between, and a chain the ledger refuses leaves the
     * hold as it was. The returns then go through clearing as any return: it finds them reserved, instructs the
     * victim's bank and posts or voids them. Asking again answers {@link RefundOutcome#RESERVED} again and moves nothing.
     */
    public List<RefundOutcome> refund(PaymentId report, List<Refund> refunds, int timeoutSeconds) {
        Check.that(!refunds.isEmpty() && refunds.size() <= HoldIds.POSITIONS_MAX, "refunds: %d", refunds.size());
        PaymentId original = refunds.getFirst().payment().returnOf().original();
        Check.that(
                refunds.stream()
                        .allMatch(
                                refund -> refund.payment().returnOf().original().equals(original)),
                "the refunds of one report return one payment");
        SettlementPlan opening = SettlementPlan.of(refunds.getFirst().payment());
        List<AccountResult> accounts = ledger.createAccounts(
                List.of(ChartOfAccounts.returnsControlAccount(), ChartOfAccounts.returnableAccount(original)));
        Check.that(accounts.stream().allMatch(AccountResult::isSuccess), "the returns accounts: %s", accounts);
        // The opening first, unlinked: the ledger applies a request's transfers in order, so the chains after it find
        // the returnable account open ({@code exists} once any return of the payment opened it).
        List<NewTransfer> request = new ArrayList<>();
        request.add(opening.returnableOpening());
        List<SettlementPlan> plans = new ArrayList<>(refunds.size());
        for (Refund refund : refunds) {
            SettlementPlan plan = SettlementPlan.of(refund.payment());
            plans.add(plan);
            request.add(NewTransfer.voidPending(
                            HoldIds.refundVoid(refund.payment().id()), HoldIds.hold(report, refund.position()))
                    .linked());
            request.addAll(plan.pendingChain(timeoutSeconds));
        }
        Check.that(request.size() <= io.pagora.ledger.port.Ledger.BATCH_SIZE_MAX, "refunds fit one request");
        List<TransferResult> results = ledger.createTransfers(request);
        Check.that(results.size() == request.size(), "one result per transfer");
        List<RefundOutcome> refunded = new ArrayList<>(refunds.size());
        int offset = 1;
        for (SettlementPlan plan : plans) {
            List<TransferResult> chain = results.subList(offset, offset + 1 + plan.legCount());
            refunded.add(refunded(report, plan, chain));
            offset += chain.size();
        }
        // The opening cannot fail for the ledger's state (returns control has no limit, both accounts were just
        // taken): a failure is another transfer under its id, an alarm. Unless a chain was reserved: the account was
        // open already, the reservation stands and must reach clearing, so it is answered, not thrown away.
        Check.that(
                results.getFirst().isSuccess() || refunded.contains(RefundOutcome.RESERVED),
                "the returnable opening of %s: %s",
                original,
                results.getFirst());
        return refunded;
    }

    private static RefundOutcome refunded(PaymentId report, SettlementPlan plan, List<TransferResult> chain) {
        if (ReservationOutcome.isAppliedNowOrBefore(chain)) {
            return RefundOutcome.RESERVED;
        }
        TransferResult freeing = chain.getFirst();
        switch (freeing) {
            case PENDING_TRANSFER_EXPIRED -> {
                return RefundOutcome.HOLD_LAPSED;
            }
            case PENDING_TRANSFER_ALREADY_VOIDED -> {
                return RefundOutcome.HOLD_RELEASED;
            }
            case ID_ALREADY_FAILED -> {
                return RefundOutcome.PREVIOUSLY_FAILED;
            }
            case OK, LINKED_EVENT_FAILED -> {}
            default ->
                // Posted, not found, or another transfer under the void's id: the hold is not what this report made.
                throw new IllegalStateException("refund " + plan.payment().id() + " of report " + report
                        + ": the ledger answered " + freeing + " to its hold's void");
        }
        return switch (ReservationOutcome.classify(plan, chain.subList(1, chain.size()))) {
            case ReservationOutcome.Refused refused ->
                switch (refused.reason()) {
                    case INSUFFICIENT_RESERVE -> RefundOutcome.INSUFFICIENT_RESERVE;
                    case RETURN_EXCEEDS_RETURNABLE -> RefundOutcome.RETURN_EXCEEDS_RETURNABLE;
                    case PREVIOUSLY_FAILED -> RefundOutcome.PREVIOUSLY_FAILED;
                    case INSUFFICIENT_FUNDS, UNKNOWN_ACCOUNT, LEDGER_REFUSED -> RefundOutcome.LEDGER_REFUSED;
                };
            case ReservationOutcome.IntegrityAlarm alarm ->
                throw new IllegalStateException("refund " + plan.payment().id() + " of report " + report + ": leg "
                        + alarm.leg() + " answered " + alarm.code());
            case ReservationOutcome.Reserved reserved ->
                throw new IllegalStateException("a chain refused at its void cannot be reserved: " + chain);
        };
    }

    private static long[] heldBy(List<FundsTrace.Node> hop, Map<Integer, Long> stood) {
        long[] held = new long[hop.size()];
        for (int i = 0; i < hop.size(); i++) {
            held[i] = stood.getOrDefault(hop.get(i).position(), 0L);
        }
        return held;
    }
}
