package io.pagora.settlement.application;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferResult;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.TransferCode;
import io.pagora.settlement.domain.med.FundsTrace;
import io.pagora.settlement.domain.med.HoldIds;
import io.pagora.settlement.domain.med.TraceLimits;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cautionary holds on a reported payment's money (MED, docs/med.md), in the ledger: each a pending transfer from the
 * account holding the money to its bank's fraud holds account, with a timeout, so the customer cannot spend it and it
 * is released by itself if nobody decides. Ids derive from the report's ({@link HoldIds}): filing again, or
 * releasing again, makes the same transfers.
 */
public final class HoldingFunds {

    /** What a filing held: the trace, rebuilt from the holds the ledger took. */
    public record Filed(FundsTrace trace, int ledgerRequests) {}

    private final Ledger ledger;
    private final TracingFunds tracing;

    public HoldingFunds(Ledger ledger) {
        this.ledger = ledger;
        this.tracing = new TracingFunds(ledger);
    }

    /**
     * Traces {@code payment} up to {@code cutTimestamp} and holds, on each account, what it still has of what was
     * traced to it, for {@code timeoutSeconds}. A hold the ledger refuses because the customer spent the money
     * between the reading and the hold holds nothing; the answer is the trace rebuilt from the holds that stand.
     */
    public Filed file(PaymentId report, PaymentId payment, long cutTimestamp, TraceLimits limits, int timeoutSeconds) {
        Check.that(timeoutSeconds > 0, "a hold lapses: %d s", timeoutSeconds);
        int[] requests = {0};
        Ledger counted = new CountingLedger(ledger, requests);
        // Filed before (a retry after a crash): its holds are in the ledger, all of them, as one request made them.
        Map<Integer, Long> earlier = holdsOf(report, counted);
        if (!earlier.isEmpty()) {
            return new Filed(
                    new TracingFunds(counted).trace(payment, cutTimestamp, limits, hop -> heldBy(hop, earlier)),
                    requests[0]);
        }
        Map<Id128, Long> left = new HashMap<>();
        FundsTrace planned = new TracingFunds(counted).trace(payment, cutTimestamp, limits, hop -> {
            List<Id128> unread = hop.stream()
                    .map(FundsTrace.Node::account)
                    .filter(account -> !left.containsKey(account))
                    .distinct()
                    .toList();
            if (!unread.isEmpty()) {
                unread.forEach(account -> left.put(account, 0L));
                for (Account account : counted.lookupAccounts(unread)) {
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
        List<FundsTrace.Node> holding =
                planned.nodes().stream().filter(node -> node.heldCentavos() > 0).toList();
        if (holding.isEmpty()) {
            return new Filed(planned, requests[0]);
        }
        Set<BankId> banks = new LinkedHashSet<>();
        holding.forEach(node -> banks.add(ChartOfAccounts.bankOf(node.account()).orElseThrow()));
        List<NewAccount> holdsAccounts =
                banks.stream().map(ChartOfAccounts::fraudHoldsAccount).toList();
        List<AccountResult> opened = counted.createAccounts(holdsAccounts);
        Check.that(
                opened.stream().allMatch(AccountResult::isSuccess),
                "the ledger refused a fraud holds account: %s",
                opened);
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
        List<TransferResult> results = counted.createTransfers(holds);
        Map<Integer, Long> stood = new HashMap<>();
        for (int i = 0; i < holding.size(); i++) {
            TransferResult result = results.get(i);
            switch (result) {
                case OK, EXISTS ->
                    stood.put(holding.get(i).position(), holding.get(i).heldCentavos());
                case EXCEEDS_CREDITS -> stood.put(holding.get(i).position(), 0L);
                default ->
                    throw new IllegalStateException(
                            "the ledger refused hold " + holds.get(i).id() + " of report " + report + ": " + result);
            }
        }
        if (stood.values().stream().allMatch(amount -> amount > 0)) {
            return new Filed(planned, requests[0]);
        }
        return new Filed(
                new TracingFunds(counted).trace(payment, cutTimestamp, limits, hop -> heldBy(hop, stood)), requests[0]);
    }

    /**
     * The trace of {@code report} as the ledger holds it: the same walk, each account holding what its hold transfer
     * holds (nothing where there is none). The same cut gives the same trace as the filing answered.
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

    private static long[] heldBy(List<FundsTrace.Node> hop, Map<Integer, Long> stood) {
        long[] held = new long[hop.size()];
        for (int i = 0; i < hop.size(); i++) {
            held[i] = stood.getOrDefault(hop.get(i).position(), 0L);
        }
        return held;
    }

    /** Counts the requests a filing makes: the bound docs/med.md states. */
    private static final class CountingLedger extends io.pagora.ledger.port.ForwardingLedger {
        private final int[] requests;

        CountingLedger(Ledger delegate, int[] requests) {
            super(delegate);
            this.requests = requests;
        }

        @Override
        public List<AccountResult> createAccounts(List<NewAccount> accounts) {
            requests[0]++;
            return super.createAccounts(accounts);
        }

        @Override
        public List<TransferResult> createTransfers(List<NewTransfer> transfers) {
            requests[0]++;
            return super.createTransfers(transfers);
        }

        @Override
        public List<Account> lookupAccounts(List<Id128> ids) {
            requests[0]++;
            return super.lookupAccounts(ids);
        }

        @Override
        public List<Transfer> lookupTransfers(List<Id128> ids) {
            requests[0]++;
            return super.lookupTransfers(ids);
        }

        @Override
        public List<Transfer> accountTransfers(Id128 account, Sides sides, long timestampAfter, int limit) {
            requests[0]++;
            return super.accountTransfers(account, sides, timestampAfter, limit);
        }
    }
}
