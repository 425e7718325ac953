package io.pagora.reporting.reconciliation.application;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Transfer;
import io.pagora.reporting.reconciliation.domain.AccountBalance;
import io.pagora.reporting.reconciliation.domain.Mismatch;
import io.pagora.reporting.reconciliation.domain.MismatchKind;
import io.pagora.reporting.reconciliation.domain.PaymentFinality;
import io.pagora.reporting.reconciliation.domain.PaymentFlows;
import io.pagora.reporting.reconciliation.domain.Verdict;
import io.pagora.settlement.domain.AccountKind;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.SettlementPlan;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The balance check: the balances of a page of the ledger's own account set (walked in creation order, every
 * customer and every bank, whether or not the read model knows them: a payment wholly missing from the read model
 * shows) and of every bank's reserve and transit, at a <b>consistent cut</b>: one ledger read. A projection lag must
 * show as lag, never as a mismatch, so the read model is only read once it provably holds every payment that ledger
 * read could hold ({@link PaymentPipeline}: clearing committed past every input record it could have posted from,
 * then the projection past every outcome published by then). Until then the check waits, a few seconds in the round
 * and then round after round (its accounts counted deferred). While payments flow the read model also holds some
 * posted after the read: those can only be among the settled payments published since just before it (the window,
 * read from the outcomes), and they are the newest of them in the ledger's own posting order (their post legs'
 * timestamps, looked up). {@link AccountBalance} finds the cut per account, exactly, so reserves, transits and busy
 * customers are judged under load. A disagreement is reported when two consecutive cuts show it (one disagreeing cut
 * makes it a suspect), and once until the account agrees again. A reported customer points at its latest settled
 * payments: their legs are looked up whatever the sample.
 *
 * <p>Not thread-safe: one thread runs the rounds.
 */
final class BalanceCheck {

    /** Banks tracked (two ledger accounts each). */
    static final int BANKS_MAX = 1_000;
    /** Accounts whose disagreement awaits confirmation; beyond this they are simply retried. */
    static final int SUSPECTS_MAX = 10_000;
    /** How often a balance check asks whether the pipeline holds its ledger read yet, while it waits in a round. */
    static final Duration PIPELINE_POLL = Duration.ofMillis(50);
    /** Reported accounts whose latest settled payments are looked up, per round. */
    static final int POINTED_ACCOUNTS_PER_ROUND_MAX = 4;

    /**
     * A balance check under way: the ledger read at its cut, where the outcomes ended just before it, the clearing
     * stage it waits for and where that stage's input ended (its first stage's: just after the read), and, once
     * clearing is past its last stage, where the outcomes ended then.
     */
    private record Cut(
            List<Id128> customers,
            List<BankId> banks,
            Map<Id128, Account> ledger,
            PaymentPipeline.Positions outcomesBefore,
            int clearingStage,
            PaymentPipeline.Positions clearingInputs,
            PaymentPipeline.Positions outcomesCleared) {

        Cut atStage(int stage, PaymentPipeline.Positions inputs) {
            return new Cut(customers, banks, ledger, outcomesBefore, stage, inputs, null);
        }

        Cut cleared(PaymentPipeline.Positions outcomes) {
            return new Cut(customers, banks, ledger, outcomesBefore, clearingStage, clearingInputs, outcomes);
        }

        int accounts() {
            return customers.size() + 2 * banks.size();
        }
    }

    private final PacedLedger ledger;
    private final ReconciliationReadModel readModel;
    private final PaymentPipeline pipeline;
    private final PaymentJudge judge;
    private final ReconciliationSettings settings;

    private long accountCursorTimestamp;
    private Instant balancesCheckedAt = Instant.EPOCH;
    private final TreeSet<BankId> banks = new TreeSet<>((a, b) -> Integer.compare(a.ispb(), b.ispb()));
    /** The balance check waiting for the pipeline, if any. */
    private Cut cut;
    /** Accounts seen disagreeing at the last cut that judged them: true once reported. */
    private final Map<Id128, Boolean> suspects = new HashMap<>();

    BalanceCheck(
            PacedLedger ledger,
            ReconciliationReadModel readModel,
            PaymentPipeline pipeline,
            PaymentJudge judge,
            ReconciliationSettings settings) {
        this.ledger = ledger;
        this.readModel = readModel;
        this.pipeline = pipeline;
        this.judge = judge;
        this.settings = settings;
    }

    /**
     * This round's balance step, when {@code balanceInterval} has passed since the last one; a failure is recorded in
     * the report, with everything judged before it.
     */
    void run(Instant now, RoundReport.Builder report) {
        if (Duration.between(balancesCheckedAt, now).compareTo(settings.balanceInterval()) < 0) {
            return;
        }
        balancesCheckedAt = now;
        try {
            checkBalances(report);
        } catch (RuntimeException e) {
            report.failed("balances", e);
        }
    }

    /** Starts a balance check, or goes on with the one waiting for the pipeline; judges it once the pipeline holds it. */
    private void checkBalances(RoundReport.Builder report) {
        if (cut == null) {
            cut = readLedgerAtCut();
        }
        if (!awaitPipeline()) {
            // A projection (or clearing) behind the ledger read: lag, judged once it caught up.
            report.accountsDeferred += cut.accounts();
            return;
        }
        Cut judged = cut;
        cut = null;
        judgeCut(judged, report);
    }

    /** The outcomes' end, the ledger read, clearing's first input's end: in this order (see {@link PaymentPipeline}). */
    private Cut readLedgerAtCut() {
        PaymentPipeline.Positions outcomesBefore = pipeline.outcomesEnd();
        List<Id128> customers = nextAccountsPage();
        List<BankId> knownBanks = List.copyOf(banks);
        List<Id128> ids = new ArrayList<>(customers);
        for (BankId bank : knownBanks) {
            ids.add(ChartOfAccounts.reserve(bank));
            ids.add(ChartOfAccounts.transit(bank));
        }
        Map<Id128, Account> read = ledger.lookupAccounts(ids);
        return new Cut(customers, knownBanks, read, outcomesBefore, 0, pipeline.clearingInputsEnd(0), null);
    }

    /** Whether the read model now holds every payment the cut's ledger read could hold; waits up to pipelineWait. */
    private boolean awaitPipeline() {
        long deadline = System.nanoTime() + settings.pipelineWait().toNanos();
        while (true) {
            while (cut.outcomesCleared() == null && pipeline.clearingPast(cut.clearingStage(), cut.clearingInputs())) {
                int next = cut.clearingStage() + 1;
                cut = next < pipeline.clearingStages()
                        ? cut.atStage(next, pipeline.clearingInputsEnd(next))
                        : cut.cleared(pipeline.outcomesEnd());
            }
            if (cut.outcomesCleared() != null && pipeline.projectedPast(cut.outcomesCleared())) {
                return true;
            }
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            try {
                Thread.sleep(PIPELINE_POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    private void judgeCut(Cut judged, RoundReport.Builder report) {
        Set<Id128> accounts = new HashSet<>(judged.ledger().keySet());
        Map<Id128, Payment> window = new LinkedHashMap<>();
        boolean[] windowTooLarge = {false};
        ReconciliationReadModel.FlowsSnapshot snapshot = readModel.flowsAtOneSnapshot(judged.customers(), () -> {
            Optional<List<Payment>> settled = pipeline.settledBetween(
                    judged.outcomesBefore(), pipeline.outcomesEnd(), settings.windowRecordsMax());
            windowTooLarge[0] = settled.isEmpty();
            settled.orElse(List.of()).stream()
                    .filter(p -> moves(p, accounts))
                    .forEach(p -> window.put(p.id().value(), p));
            return List.copyOf(window.keySet());
        });
        if (windowTooLarge[0]) {
            // The read model ran far ahead of this ledger read (it lagged long, then caught up): a new cut next time.
            report.accountsDeferred += judged.accounts();
            return;
        }
        window.keySet().retainAll(snapshot.settled());
        Map<Id128, List<AccountBalance.Posted>> postedAfter = postedShares(window.values(), accounts);
        Set<Id128> pointed = new LinkedHashSet<>();
        for (Id128 customer : judged.customers()) {
            judgeAccount(
                    AccountKind.CUSTOMER,
                    customer,
                    judged,
                    snapshot.accountFlows().getOrDefault(customer, PaymentFlows.NONE),
                    postedAfter,
                    report,
                    pointed);
        }
        for (BankId bank : judged.banks()) {
            PaymentFlows flows = snapshot.bankFlows().getOrDefault(bank, PaymentFlows.NONE);
            judgeAccount(
                    AccountKind.RESERVE, ChartOfAccounts.reserve(bank), judged, flows, postedAfter, report, pointed);
            judgeAccount(
                    AccountKind.TRANSIT, ChartOfAccounts.transit(bank), judged, flows, postedAfter, report, pointed);
        }
        for (Id128 account : pointed) {
            // Already judged in projection order (and counted there): only their legs are added, and any mismatch.
            judge.judge(readModel.settledPaymentsOf(account, settings.paymentsPerLookup()), row -> true)
                    .recordPointedInto(report);
        }
    }

    /** Whether a payment moves any of these accounts. */
    private static boolean moves(Payment payment, Set<Id128> accounts) {
        for (SettlementPlan.Leg leg : SettlementPlan.of(payment).legs()) {
            if (accounts.contains(leg.debit()) || accounts.contains(leg.credit())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Each window payment's share of the judged accounts, with the ledger timestamp of its first post leg (a
     * payment's legs are posted as one unit); one looked-up leg per payment, in paced lookups of bounded size. A
     * payment the ledger never posted has no share: its account cannot be explained, and shows.
     */
    private Map<Id128, List<AccountBalance.Posted>> postedShares(Collection<Payment> window, Set<Id128> accounts) {
        Map<Id128, Payment> byFirstPostLeg = new LinkedHashMap<>();
        for (Payment payment : window) {
            byFirstPostLeg.put(PaymentFinality.postLegIds(payment).getFirst(), payment);
        }
        List<Id128> legIds = List.copyOf(byFirstPostLeg.keySet());
        Map<Id128, List<AccountBalance.Posted>> shares = new HashMap<>();
        for (int from = 0; from < legIds.size(); from += settings.legLookupIdsMax()) {
            List<Id128> batch = legIds.subList(from, Math.min(legIds.size(), from + settings.legLookupIdsMax()));
            for (Transfer leg : ledger.lookupTransfers(batch).values()) {
                Payment payment = byFirstPostLeg.get(leg.id());
                if (payment != null) {
                    addShares(payment, leg.timestamp(), accounts, shares);
                }
            }
        }
        return shares;
    }

    /** What one payment moved on each judged account's payment side and funded side (see {@link AccountBalance}). */
    private static void addShares(
            Payment payment, long postedAt, Set<Id128> accounts, Map<Id128, List<AccountBalance.Posted>> shares) {
        Map<Id128, long[]> sides = new HashMap<>();
        for (SettlementPlan.Leg leg : SettlementPlan.of(payment).legs()) {
            boolean debitIsPaymentSide = ChartOfAccounts.kindOf(leg.debit()).orElse(null) != AccountKind.TRANSIT;
            sides.computeIfAbsent(leg.debit(), id -> new long[2])[debitIsPaymentSide ? 0 : 1] +=
                    payment.amountCentavos();
            boolean creditIsPaymentSide = ChartOfAccounts.kindOf(leg.credit()).orElse(null) == AccountKind.TRANSIT;
            sides.computeIfAbsent(leg.credit(), id -> new long[2])[creditIsPaymentSide ? 0 : 1] +=
                    payment.amountCentavos();
        }
        sides.forEach((account, side) -> {
            if (accounts.contains(account)) {
                shares.computeIfAbsent(account, id -> new ArrayList<>())
                        .add(new AccountBalance.Posted(postedAt, side[0], side[1]));
            }
        });
    }

    /**
     * The next page of the ledger's account set (a whole walk restarts once it reaches the newest account):
     * its customers are returned, its banks join the banks judged at every balance check.
     */
    private List<Id128> nextAccountsPage() {
        List<Account> page = ledger.accountsAfter(accountCursorTimestamp, settings.accountsPerRound());
        List<Id128> customers = new ArrayList<>();
        for (Account account : page) {
            if (ChartOfAccounts.isCustomer(account.id())) {
                customers.add(account.id());
            } else {
                ChartOfAccounts.bankOf(account.id()).ifPresent(bank -> {
                    if (banks.size() < BANKS_MAX) {
                        banks.add(bank);
                    }
                });
            }
        }
        accountCursorTimestamp =
                page.size() < settings.accountsPerRound() ? 0 : page.getLast().timestamp();
        return customers;
    }

    private void judgeAccount(
            AccountKind kind,
            Id128 id,
            Cut judged,
            PaymentFlows flows,
            Map<Id128, List<AccountBalance.Posted>> postedAfter,
            RoundReport.Builder report,
            Set<Id128> pointed) {
        Account atCut = judged.ledger().get(id);
        Verdict verdict = atCut == null
                ? new Verdict.Disagrees(MismatchKind.BALANCE, "the ledger has no such account")
                : AccountBalance.judge(kind, atCut, flows, postedAfter.getOrDefault(id, List.of()));
        switch (verdict) {
            case Verdict.Agrees agrees -> {
                report.accountsChecked++;
                suspects.remove(id);
            }
            case Verdict.Deferred deferred -> report.accountsDeferred++;
            case Verdict.Disagrees disagrees -> {
                if (confirm(kind, id, disagrees, report)
                        && kind == AccountKind.CUSTOMER
                        && pointed.size() < POINTED_ACCOUNTS_PER_ROUND_MAX) {
                    pointed.add(id);
                }
            }
        }
    }

    /**
     * Reports a disagreement the second consecutive cut in a row shows, once until the account agrees again. Both
     * ledgers stamp in commit order (TigerBeetle applies each request alone; the PostgreSQL ledger takes its clock row
     * after its account locks and holds it to commit), so one cut is proof; the second costs one round's delay and
     * keeps a backend whose stamps did not follow commit order from raising false alarms.
     *
     * @return whether it was reported now
     */
    private boolean confirm(AccountKind kind, Id128 id, Verdict.Disagrees disagrees, RoundReport.Builder report) {
        Boolean reported = suspects.get(id);
        if (reported == null) {
            if (suspects.size() < SUSPECTS_MAX) {
                suspects.put(id, false);
            }
            report.accountsDeferred++;
            return false;
        }
        report.accountsChecked++;
        if (reported) {
            return false;
        }
        suspects.put(id, true);
        report.mismatch(
                new Mismatch(disagrees.kind(), kind.name().toLowerCase(Locale.ROOT) + " " + id, disagrees.detail()));
        return true;
    }
}
