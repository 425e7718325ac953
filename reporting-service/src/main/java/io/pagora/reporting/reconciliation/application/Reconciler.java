package io.pagora.reporting.reconciliation.application;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.domain.Account;
import io.pagora.ledger.domain.Ledger;
import io.pagora.ledger.domain.Transfer;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel.PaymentRow;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel.ProjectedPayment;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel.ProjectionPosition;
import io.pagora.reporting.reconciliation.domain.AccountBalance;
import io.pagora.reporting.reconciliation.domain.LegSample;
import io.pagora.reporting.reconciliation.domain.Mismatch;
import io.pagora.reporting.reconciliation.domain.MismatchKind;
import io.pagora.reporting.reconciliation.domain.PaymentFinality;
import io.pagora.reporting.reconciliation.domain.PaymentFlows;
import io.pagora.reporting.reconciliation.domain.Verdict;
import io.pagora.settlement.domain.AccountKind;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Compares the read model with the ledger, a bounded slice per {@link #round()}, reading the ledger itself
 * (never clearing's word), in requests of bounded size paced by {@link Pacer}:
 * <ol>
 *   <li><b>Payments</b>, in projection order ({@link ReconciliationReadModel#paymentsProjectedAfter}): every
 *       payment is judged once, whenever its row reaches the read model, once it is {@code finalWithin} past
 *       the later of its acceptance and its projection (its pending timeout, the expiry margin and the
 *       projection's lag). It must be final then. Its post legs are looked up in the ledger
 *       ({@link PaymentFinality}) for a deterministic sample ({@link LegSample}) and for every payment still
 *       not final; the balances below cover the others in aggregate. A payment not final yet holds the cursor
 *       (it is judged again next round, and the lag grows) until it is {@value #STUCK_AFTER_FINAL_WITHINS}
 *       times {@code finalWithin} past its visibility: then it is STUCK. An outage the platform recovers from
 *       is lag, not mismatches.
 *   <li><b>Balances</b> of a page of the ledger's own account set (walked in creation order, every customer
 *       and every bank, whether or not the read model knows them: a payment wholly missing from the read
 *       model shows) and of every bank's reserve and transit, at a consistent point: the ledger is read, then
 *       the projection's totals, then the ledger again. An account that moved between the two ledger reads is
 *       deferred to a later round. One that held still but disagrees may be one whose last payment the read
 *       model has not projected yet, so it is only reported once it has disagreed, with the same ledger
 *       balance, for {@code confirmAfter} ({@link AccountBalance} says what must agree). A reported customer
 *       points at its latest settled payments: their legs are looked up whatever the sample.
 * </ol>
 * A step that throws ends the round with what was judged before it kept: mismatches are counted as each
 * lookup is judged, and the cursors only move past judged work. Not thread-safe: one thread runs the rounds.
 */
public final class Reconciler {

    /**
     * A payment still not final this many {@code finalWithin}s after it became visible is STUCK; before that,
     * a non-final payment (a clearing that is down and will recover) holds the cursor and is judged again.
     */
    static final int STUCK_AFTER_FINAL_WITHINS = 5;
    /** Payment rows read from the read model per query. */
    static final int PAYMENTS_PER_READ = 2_048;
    /** Banks tracked (two ledger accounts each). */
    static final int BANKS_MAX = 1_000;
    /** Accounts whose disagreement awaits confirmation; beyond this they are simply retried. */
    static final int SUSPECTS_MAX = 10_000;
    /** Reported accounts whose latest settled payments are looked up, per round. */
    static final int POINTED_ACCOUNTS_PER_ROUND_MAX = 4;

    /**
     * The reconciliation's settings (one copy: {@code ReconciliationProperties} binds them).
     *
     * @param finalWithin a payment must be final this long after it became visible (accepted and projected)
     * @param startLookback at start, payments accepted this long before are the first judged
     * @param paymentsPerRoundMax payment rows judged per round at most
     * @param legSamplePerMille payments per thousand whose post legs are looked up in the ledger
     * @param legLookupIdsMax transfer ids per ledger lookup (three per payment)
     * @param ledgerRequestsPerSecondMax the reconciliation's ledger requests per second, at most
     * @param accountsPerRound ledger accounts whose balance is checked per balance check (all banks' accounts too)
     * @param balanceInterval the shortest time between two balance checks
     * @param confirmAfter how long a quiet account must disagree before it is reported
     * @param detailsMax mismatches kept with their details per round
     */
    public record Settings(Duration finalWithin, Duration startLookback, int paymentsPerRoundMax,
            int legSamplePerMille, int legLookupIdsMax, int ledgerRequestsPerSecondMax, int accountsPerRound,
            Duration balanceInterval, Duration confirmAfter, int detailsMax) {

        public Settings {
            Check.that(finalWithin.isPositive() && !startLookback.isNegative() && !confirmAfter.isNegative()
                    && !balanceInterval.isNegative(), "reconciliation durations must not be negative: %s %s %s %s",
                    finalWithin, startLookback, balanceInterval, confirmAfter);
            Check.that(paymentsPerRoundMax >= 1 && paymentsPerRoundMax <= 1_000_000,
                    "payments per round must be 1..1000000: %d", paymentsPerRoundMax);
            Check.that(legSamplePerMille >= 0 && legSamplePerMille <= LegSample.PER_MILLE_ALL,
                    "the leg sample must be 0..1000 per mille: %d", legSamplePerMille);
            Check.that(legLookupIdsMax >= 3 && legLookupIdsMax <= Ledger.BATCH_SIZE_MAX,
                    "transfer ids per lookup must be 3..%d: %d", Ledger.BATCH_SIZE_MAX, legLookupIdsMax);
            Check.that(ledgerRequestsPerSecondMax >= 1 && ledgerRequestsPerSecondMax <= 10_000,
                    "ledger requests per second must be 1..10000: %d", ledgerRequestsPerSecondMax);
            Check.that(accountsPerRound >= 1 && accountsPerRound <= Ledger.BATCH_SIZE_MAX,
                    "accounts per round must be 1..%d: %d", Ledger.BATCH_SIZE_MAX, accountsPerRound);
            Check.that(detailsMax >= 1 && detailsMax <= 1_000, "details per round must be 1..1000: %d", detailsMax);
        }

        int paymentsPerLookup() {
            return legLookupIdsMax / 3;
        }
    }

    /** An account seen disagreeing with this ledger balance since {@code since}; {@code reported} once counted. */
    private record Suspect(long debitsPosted, long creditsPosted, Instant since, boolean reported) {

        boolean sameBalance(Account account) {
            return account.debitsPosted() == debitsPosted && account.creditsPosted() == creditsPosted;
        }
    }

    private final Ledger ledger;
    private final ReconciliationReadModel readModel;
    private final Clock clock;
    private final Settings settings;
    private final LegSample sample;
    private final Pacer pacer;

    private ProjectionPosition paymentCursor;
    /** When the payment at the cursor became visible: how far a round stopped by its bound got. */
    private Instant cursorVisibleAt = Instant.EPOCH;
    /** What the last round's payment step could vouch for: a failing step leaves it, so the lag grows. */
    private Instant paymentsCheckedThrough;
    private long accountCursorTimestamp;
    private Instant balancesCheckedAt = Instant.EPOCH;
    private final TreeSet<BankId> banks = new TreeSet<>((a, b) -> Integer.compare(a.ispb(), b.ispb()));
    private final Map<Id128, Suspect> suspects = new HashMap<>();

    public Reconciler(Ledger ledger, ReconciliationReadModel readModel, Clock clock, Settings settings) {
        this.ledger = ledger;
        this.readModel = readModel;
        this.clock = clock;
        this.settings = settings;
        this.sample = new LegSample(settings.legSamplePerMille());
        this.pacer = new Pacer(settings.ledgerRequestsPerSecondMax());
        this.paymentsCheckedThrough = clock.instant().minus(settings.startLookback());
    }

    /** One round; a step that throws is recorded in the report, with everything judged before it. */
    public RoundReport round() {
        Instant now = clock.instant();
        RoundReport.Builder report = new RoundReport.Builder(settings.detailsMax());
        try {
            checkPayments(now, report);
            paymentsCheckedThrough = report.paymentsCheckedThrough;
        } catch (RuntimeException e) {
            report.failed("payments", e);
            report.paymentsCheckedThrough = paymentsCheckedThrough;
        }
        if (Duration.between(balancesCheckedAt, now).compareTo(settings.balanceInterval()) >= 0) {
            balancesCheckedAt = now;
            try {
                checkBalances(now, report);
            } catch (RuntimeException e) {
                report.failed("balances", e);
            }
        }
        return report.build();
    }

    // ------------------------------------------------------------------------------------------ payments

    /**
     * Judges the payments after the cursor in projection order, pages of {@value #PAYMENTS_PER_READ} rows read
     * ahead of the judging, a full ledger lookup's worth of sampled payments at a time (the cursor moving past
     * each judged batch); stops at the first row not due yet, or due but not final and not overdue, or at the
     * round's bound.
     */
    private void checkPayments(Instant now, RoundReport.Builder report) {
        if (paymentCursor == null) {
            paymentCursor = readModel.startPosition(now.minus(settings.startLookback()));
        }
        Instant dueBefore = now.minus(settings.finalWithin());
        Instant stuckBefore = now.minus(settings.finalWithin().multipliedBy(STUCK_AFTER_FINAL_WITHINS));
        report.paymentsCheckedThrough = dueBefore;
        ProjectionPosition readAfter = paymentCursor;
        List<ProjectedPayment> batch = new ArrayList<>();
        int legged = 0;
        int read = 0;
        while (read < settings.paymentsPerRoundMax()) {
            int limit = Math.min(PAYMENTS_PER_READ, settings.paymentsPerRoundMax() - read);
            List<ProjectedPayment> rows = readModel.paymentsProjectedAfter(readAfter, limit);
            Check.that(rows.size() <= limit, "the read model answered %d payments for %d", rows.size(), limit);
            read += rows.size();
            for (ProjectedPayment row : rows) {
                Instant visibleAt = row.visibleAt();
                boolean due = !visibleAt.isAfter(dueBefore);
                boolean late = row.row().status() == PaymentStatus.ACCEPTED && visibleAt.isAfter(stuckBefore);
                if (!due || late) {
                    // Not due yet (normal: the newest payments), or due and not final (late): judged from here
                    // next round, and the lag grows while it is late.
                    judgeBatch(batch, report);
                    report.paymentsCheckedThrough = min(visibleAt, dueBefore);
                    report.paymentsCaughtUp = !due;
                    return;
                }
                batch.add(row);
                if (needsLegs(row.row()) && ++legged == settings.paymentsPerLookup()) {
                    judgeBatch(batch, report);
                    batch.clear();
                    legged = 0;
                }
            }
            if (rows.size() < limit) {
                judgeBatch(batch, report);
                report.paymentsCaughtUp = true;
                return;
            }
            readAfter = rows.getLast().position();
        }
        // The round's bound: the next round follows soon; the lag says how far behind this one stopped.
        judgeBatch(batch, report);
        report.paymentsCheckedThrough = min(cursorVisibleAt, dueBefore);
        report.paymentsCaughtUp = false;
    }

    /** Sampled payments, and payments not final (stuck: their legs are the evidence). */
    private boolean needsLegs(PaymentRow row) {
        return row.status() == PaymentStatus.ACCEPTED || sample.includes(row.paymentId());
    }

    /** Judges a batch (one ledger lookup at most), records what it found, then moves the cursor past it. */
    private void judgeBatch(List<ProjectedPayment> batch, RoundReport.Builder report) {
        if (batch.isEmpty()) {
            return;
        }
        List<PaymentRow> rows = batch.stream().map(ProjectedPayment::row).toList();
        Judged judged = judge(rows, this::needsLegs);
        judged.recordInto(report);
        paymentCursor = batch.getLast().position();
        cursorVisibleAt = batch.getLast().visibleAt();
    }

    /** The verdicts on some payments, kept until all are judged: a failing lookup leaves none half-recorded. */
    private record Judged(long payments, long legsChecked, List<Mismatch> mismatches) {

        void recordInto(RoundReport.Builder report) {
            report.paymentsChecked += payments;
            report.paymentLegsChecked += legsChecked;
            mismatches.forEach(report::mismatch);
        }

        void recordPointedInto(RoundReport.Builder report) {
            report.paymentLegsChecked += legsChecked;
            mismatches.forEach(report::mismatch);
        }
    }

    private Judged judge(List<PaymentRow> rows, Predicate<PaymentRow> withLegs) {
        List<Mismatch> mismatches = new ArrayList<>();
        List<Payment> legged = new ArrayList<>();
        List<PaymentStatus> leggedStatus = new ArrayList<>();
        List<Id128> postIds = new ArrayList<>();
        for (PaymentRow row : rows) {
            Payment payment;
            try {
                payment = new Payment(new PaymentId(row.paymentId()), row.payer(), row.payee(), row.amountCentavos());
            } catch (IllegalArgumentException e) {
                mismatches.add(new Mismatch(MismatchKind.INVALID, "payment " + row.paymentId(), e.getMessage()));
                continue;
            }
            if (withLegs.test(row)) {
                legged.add(payment);
                leggedStatus.add(row.status());
                postIds.addAll(PaymentFinality.postLegIds(payment));
            }
        }
        Check.that(postIds.size() <= settings.legLookupIdsMax(), "a lookup of %d transfer ids", postIds.size());
        Map<Id128, Transfer> posts = postIds.isEmpty() ? Map.of() : lookupTransfers(postIds);
        for (int i = 0; i < legged.size(); i++) {
            Verdict verdict = PaymentFinality.judge(legged.get(i), leggedStatus.get(i), posts);
            if (verdict instanceof Verdict.Disagrees disagrees) {
                mismatches.add(new Mismatch(disagrees.kind(), "payment " + legged.get(i).id().value(), disagrees.detail()));
            }
        }
        return new Judged(rows.size(), legged.size(), mismatches);
    }

    private Map<Id128, Transfer> lookupTransfers(List<Id128> ids) {
        pacer.awaitSlot();
        Map<Id128, Transfer> found = new LinkedHashMap<>();
        for (Transfer transfer : ledger.lookupTransfers(List.copyOf(ids))) {
            found.put(transfer.id(), transfer);
        }
        return found;
    }

    // ------------------------------------------------------------------------------------------ balances

    private void checkBalances(Instant now, RoundReport.Builder report) {
        List<Id128> customers = nextAccountsPage();
        List<BankId> knownBanks = List.copyOf(banks);
        List<Id128> ids = new ArrayList<>(customers);
        for (BankId bank : knownBanks) {
            ids.add(ChartOfAccounts.reserve(bank));
            ids.add(ChartOfAccounts.transit(bank));
        }
        Map<Id128, Account> before = lookupAccounts(ids);
        Map<Id128, PaymentFlows> customerFlows = readModel.accountFlows(customers);
        Map<BankId, PaymentFlows> bankFlows = readModel.bankFlows();
        Map<Id128, Account> after = lookupAccounts(ids);
        Set<Id128> pointed = new LinkedHashSet<>();
        for (Id128 customer : customers) {
            judgeAccount(AccountKind.CUSTOMER, customer, before, after,
                    customerFlows.getOrDefault(customer, PaymentFlows.NONE), now, report, pointed);
        }
        for (BankId bank : knownBanks) {
            PaymentFlows flows = bankFlows.getOrDefault(bank, PaymentFlows.NONE);
            judgeAccount(AccountKind.RESERVE, ChartOfAccounts.reserve(bank), before, after, flows, now, report, pointed);
            judgeAccount(AccountKind.TRANSIT, ChartOfAccounts.transit(bank), before, after, flows, now, report, pointed);
        }
        for (Id128 account : pointed) {
            // Already judged in projection order (and counted there): only their legs are added, and any mismatch.
            judge(readModel.settledPaymentsOf(account, settings.paymentsPerLookup()), row -> true)
                    .recordPointedInto(report);
        }
    }

    /**
     * The next page of the ledger's account set (a whole walk restarts once it reaches the newest account):
     * its customers are returned, its banks join the banks judged at every balance check.
     */
    private List<Id128> nextAccountsPage() {
        pacer.awaitSlot();
        List<Account> page = ledger.queryAccounts(ChartOfAccounts.LEDGER_BRL, accountCursorTimestamp,
                settings.accountsPerRound());
        Check.that(page.size() <= settings.accountsPerRound(), "the ledger answered %d accounts", page.size());
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
        accountCursorTimestamp = page.size() < settings.accountsPerRound() ? 0 : page.getLast().timestamp();
        return customers;
    }

    private Map<Id128, Account> lookupAccounts(List<Id128> ids) {
        Map<Id128, Account> found = new LinkedHashMap<>();
        for (int from = 0; from < ids.size(); from += Ledger.BATCH_SIZE_MAX) {
            pacer.awaitSlot();
            List<Id128> batch = List.copyOf(ids.subList(from, Math.min(ids.size(), from + Ledger.BATCH_SIZE_MAX)));
            for (Account account : ledger.lookupAccounts(batch)) {
                found.put(account.id(), account);
            }
        }
        return found;
    }

    private void judgeAccount(AccountKind kind, Id128 id, Map<Id128, Account> before, Map<Id128, Account> after,
            PaymentFlows flows, Instant now, RoundReport.Builder report, Set<Id128> pointed) {
        Account first = before.get(id);
        Account second = after.get(id);
        Verdict verdict = first == null || second == null
                ? new Verdict.Disagrees(MismatchKind.BALANCE, "the ledger has no such account")
                : AccountBalance.judge(kind, first, second, flows);
        switch (verdict) {
            case Verdict.Agrees agrees -> {
                report.accountsChecked++;
                suspects.remove(id);
            }
            case Verdict.Deferred deferred -> report.accountsDeferred++;
            case Verdict.Disagrees disagrees -> {
                if (confirm(kind, id, second, disagrees, now, report) && kind == AccountKind.CUSTOMER
                        && pointed.size() < POINTED_ACCOUNTS_PER_ROUND_MAX) {
                    pointed.add(id);
                }
            }
        }
    }

    /**
     * Reports a quiet account's disagreement once it has lasted {@code confirmAfter} on the same balance.
     *
     * @return whether it was reported now
     */
    private boolean confirm(AccountKind kind, Id128 id, Account account, Verdict.Disagrees disagrees, Instant now,
            RoundReport.Builder report) {
        long debits = account == null ? -1 : account.debitsPosted();
        long credits = account == null ? -1 : account.creditsPosted();
        Suspect suspect = suspects.get(id);
        boolean same = suspect != null && (account == null ? suspect.debitsPosted() == -1 : suspect.sameBalance(account));
        if (!same) {
            if (suspect != null || suspects.size() < SUSPECTS_MAX) {
                suspects.put(id, new Suspect(debits, credits, now, false));
            }
            report.accountsDeferred++;
            return false;
        }
        if (Duration.between(suspect.since(), now).compareTo(settings.confirmAfter()) < 0) {
            report.accountsDeferred++;
            return false;
        }
        report.accountsChecked++;
        if (suspect.reported()) {
            return false;
        }
        suspects.put(id, new Suspect(debits, credits, suspect.since(), true));
        report.mismatch(new Mismatch(disagrees.kind(), kind.name().toLowerCase(Locale.ROOT) + " " + id,
                disagrees.detail()));
        return true;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
