package io.pagora.reporting.reconciliation.application;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.Transfer;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.reporting.domain.ProjectionDigest;
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
import io.pagora.settlement.domain.SettlementPlan;
import java.time.Clock;
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
 *       model shows) and of every bank's reserve and transit, at a <b>consistent cut</b>: one ledger read. A
 *       projection lag must show as lag, never as a mismatch, so the read model is only read once it provably holds
 *       every payment that ledger read could hold ({@link PaymentPipeline}: clearing committed past every input
 *       record it could have posted from, then the projection past every outcome published by then). Until then the
 *       check waits, a few seconds in the round and then round after round (its accounts counted deferred). While
 *       payments flow the read model also holds some posted after the read: those can only be among the settled
 *       payments published since just before it (the window, read from the outcomes), and they are the newest of
 *       them in the ledger's own posting order (their post legs' timestamps, looked up). {@link AccountBalance}
 *       finds the cut per account, exactly, so reserves, transits and busy customers are judged under load. A
 *       disagreement is reported when two consecutive cuts show it (one disagreeing cut makes it a suspect), and
 *       once until the account agrees again. A reported customer points at its latest settled payments: their
 *       legs are looked up whatever the sample.
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
    /** How often a balance check asks whether the pipeline holds its ledger read yet, while it waits in a round. */
    static final Duration PIPELINE_POLL = Duration.ofMillis(50);
    /** Transactions whose rows disagree with their digest whose rows are looked up in the ledger, per judged batch. */
    static final int UNPROJECTED_TRANSACTIONS_PER_BATCH_MAX = 4;
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
     * @param pipelineWait how long a balance check waits in one round for the read model to hold its ledger read
     * @param windowRecordsMax outcome records a balance check reads at most (published since its ledger read); with
     *     more (a projection that lagged long) it is given up and a new one starts
     * @param detailsMax mismatches kept with their details per round
     */
    public record Settings(Duration finalWithin, Duration startLookback, int paymentsPerRoundMax,
            int legSamplePerMille, int legLookupIdsMax, int ledgerRequestsPerSecondMax, int accountsPerRound,
            Duration balanceInterval, Duration pipelineWait, int windowRecordsMax, int detailsMax) {

        public Settings {
            Check.that(finalWithin.isPositive() && !startLookback.isNegative() && !pipelineWait.isNegative()
                    && !balanceInterval.isNegative(), "reconciliation durations must not be negative: %s %s %s %s",
                    finalWithin, startLookback, balanceInterval, pipelineWait);
            Check.that(windowRecordsMax >= 1 && windowRecordsMax <= 1_000_000,
                    "window records must be 1..1000000: %d", windowRecordsMax);
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

    /**
     * A balance check under way: the ledger read at its cut, where the outcomes ended just before it, the clearing
     * stage it waits for and where that stage's input ended (its first stage's: just after the read), and, once
     * clearing is past its last stage, where the outcomes ended then.
     */
    private record Cut(List<Id128> customers, List<BankId> banks, Map<Id128, Account> ledger,
            PaymentPipeline.Positions outcomesBefore, int clearingStage, PaymentPipeline.Positions clearingInputs,
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

    private final Ledger ledger;
    private final ReconciliationReadModel readModel;
    private final PaymentPipeline pipeline;
    private final Clock clock;
    private final Settings settings;
    private final LegSample sample;
    private final Pacer pacer;

    private ProjectionPosition paymentCursor;
    /** The judged rows of the transaction at the cursor, as the projection's digest adds them up. */
    private ProjectionTally tally;
    /** Transactions after this one wrote digests (read once). */
    private Long digestsAfter;
    /** When the payment at the cursor became visible: how far a round stopped by its bound got. */
    private Instant cursorVisibleAt = Instant.EPOCH;
    /** What the last round's payment step could vouch for: a failing step leaves it, so the lag grows. */
    private Instant paymentsCheckedThrough;
    private long accountCursorTimestamp;
    private Instant balancesCheckedAt = Instant.EPOCH;
    private final TreeSet<BankId> banks = new TreeSet<>((a, b) -> Integer.compare(a.ispb(), b.ispb()));
    /** The balance check waiting for the pipeline, if any. */
    private Cut cut;
    /** Accounts seen disagreeing at the last cut that judged them: true once reported. */
    private final Map<Id128, Boolean> suspects = new HashMap<>();

    public Reconciler(Ledger ledger, ReconciliationReadModel readModel, PaymentPipeline pipeline, Clock clock,
            Settings settings) {
        this.ledger = ledger;
        this.readModel = readModel;
        this.pipeline = pipeline;
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
                checkBalances(report);
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
            tally = ProjectionTally.startingAt(paymentCursor);
        }
        if (digestsAfter == null) {
            digestsAfter = readModel.digestsAfter();
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
                    judgeBatch(batch, false, report);
                    report.paymentsCheckedThrough = min(visibleAt, dueBefore);
                    report.paymentsCaughtUp = !due;
                    return;
                }
                batch.add(row);
                if (needsLegs(row.row()) && ++legged == settings.paymentsPerLookup()) {
                    judgeBatch(batch, false, report);
                    batch.clear();
                    legged = 0;
                }
            }
            if (rows.size() < limit) {
                judgeBatch(batch, true, report);
                report.paymentsCaughtUp = true;
                return;
            }
            readAfter = rows.getLast().position();
        }
        // The round's bound: the next round follows soon; the lag says how far behind this one stopped.
        judgeBatch(batch, false, report);
        report.paymentsCheckedThrough = min(cursorVisibleAt, dueBefore);
        report.paymentsCaughtUp = false;
    }

    /** Sampled payments, and payments not final (stuck: their legs are the evidence). */
    private boolean needsLegs(PaymentRow row) {
        return row.status() == PaymentStatus.ACCEPTED || sample.includes(row.paymentId());
    }

    /**
     * Judges a batch (one ledger lookup at most) and the projection transactions it completes, records what it
     * found, then moves the cursor past it: a step that throws leaves the cursor, the tally and the report as they were.
     *
     * @param walkedToEnd whether the batch ends the walk below the oldest running transaction (its last transaction
     *     is then complete)
     */
    private void judgeBatch(List<ProjectedPayment> batch, boolean walkedToEnd, RoundReport.Builder report) {
        List<ProjectionTally.Complete> complete = new ArrayList<>();
        ProjectionTally added = tally.add(batch, complete);
        if (walkedToEnd) {
            added = added.walkedToEnd(complete);
        }
        if (batch.isEmpty() && complete.isEmpty()) {
            return;
        }
        List<PaymentRow> rows = batch.stream().map(ProjectedPayment::row).toList();
        Judged judged = judge(rows, this::needsLegs);
        List<Judged> unprojected = judgeAgainstDigests(complete);
        judged.recordInto(report);
        unprojected.forEach(found -> found.recordPointedInto(report));
        tally = added;
        if (!batch.isEmpty()) {
            paymentCursor = batch.getLast().position();
            cursorVisibleAt = batch.getLast().visibleAt();
        }
    }

    /**
     * Compares each complete transaction's rows with the digest the projection wrote for them. Rows that are not
     * what the projection inserted (planted, lost or changed outside it) are reported, and then, whatever the leg
     * sample, the ledger is asked about that transaction's rows (up to one lookup each, for at most
     * {@value #UNPROJECTED_TRANSACTIONS_PER_BATCH_MAX} transactions per batch): a row the ledger never settled shows as such.
     */
    private List<Judged> judgeAgainstDigests(List<ProjectionTally.Complete> complete) {
        List<ProjectionTally.Complete> compared = complete.stream()
                .filter(c -> Long.compareUnsigned(c.transactionId(), digestsAfter) > 0).toList();
        if (compared.isEmpty()) {
            return List.of();
        }
        Map<Long, ProjectionDigest> written = readModel.digestsOf(
                compared.stream().map(ProjectionTally.Complete::transactionId).toList());
        List<Judged> found = new ArrayList<>();
        for (ProjectionTally.Complete transaction : compared) {
            ProjectionDigest digest = written.getOrDefault(transaction.transactionId(), ProjectionDigest.NONE);
            if (digest.equals(transaction.rows())) {
                continue;
            }
            Mismatch mismatch = new Mismatch(MismatchKind.UNPROJECTED, "projection transaction "
                    + Long.toUnsignedString(transaction.transactionId()), "the read model holds "
                    + describe(transaction.rows()) + " inserted by it, the projection wrote " + describe(digest));
            Judged legs = found.size() < UNPROJECTED_TRANSACTIONS_PER_BATCH_MAX
                    ? judge(readModel.paymentsInsertedBy(transaction.transactionId(), settings.paymentsPerLookup()),
                            row -> !needsLegs(row))
                    : new Judged(0, 0, List.of());
            List<Mismatch> mismatches = new ArrayList<>(List.of(mismatch));
            mismatches.addAll(legs.mismatches());
            found.add(new Judged(0, legs.legsChecked(), mismatches));
        }
        return found;
    }

    private static String describe(ProjectionDigest digest) {
        return digest.payments() + " payments of " + digest.amountCentavos() + " centavos (fingerprint "
                + Long.toHexString(digest.fingerprint()) + ")";
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
        Map<Id128, Account> read = lookupAccounts(ids);
        return new Cut(customers, knownBanks, read, outcomesBefore, 0, pipeline.clearingInputsEnd(0), null);
    }

    /** Whether the read model now holds every payment the cut's ledger read could hold; waits up to pipelineWait. */
    private boolean awaitPipeline() {
        long deadline = System.nanoTime() + settings.pipelineWait().toNanos();
        while (true) {
            while (cut.outcomesCleared() == null && pipeline.clearingPast(cut.clearingStage(), cut.clearingInputs())) {
                int next = cut.clearingStage() + 1;
                cut = next < pipeline.clearingStages() ? cut.atStage(next, pipeline.clearingInputsEnd(next))
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
            Optional<List<Payment>> settled = pipeline.settledBetween(judged.outcomesBefore(), pipeline.outcomesEnd(),
                    settings.windowRecordsMax());
            windowTooLarge[0] = settled.isEmpty();
            settled.orElse(List.of()).stream().filter(p -> moves(p, accounts)).forEach(p -> window.put(p.id().value(), p));
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
            judgeAccount(AccountKind.CUSTOMER, customer, judged, snapshot.accountFlows().getOrDefault(customer,
                    PaymentFlows.NONE), postedAfter, report, pointed);
        }
        for (BankId bank : judged.banks()) {
            PaymentFlows flows = snapshot.bankFlows().getOrDefault(bank, PaymentFlows.NONE);
            judgeAccount(AccountKind.RESERVE, ChartOfAccounts.reserve(bank), judged, flows, postedAfter, report, pointed);
            judgeAccount(AccountKind.TRANSIT, ChartOfAccounts.transit(bank), judged, flows, postedAfter, report, pointed);
        }
        for (Id128 account : pointed) {
            // Already judged in projection order (and counted there): only their legs are added, and any mismatch.
            judge(readModel.settledPaymentsOf(account, settings.paymentsPerLookup()), row -> true)
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
            for (Transfer leg : lookupTransfers(batch).values()) {
                Payment payment = byFirstPostLeg.get(leg.id());
                if (payment != null) {
                    addShares(payment, leg.timestamp(), accounts, shares);
                }
            }
        }
        return shares;
    }

    /** What one payment moved on each judged account's payment side and funded side (see {@link AccountBalance}). */
    private static void addShares(Payment payment, long postedAt, Set<Id128> accounts,
            Map<Id128, List<AccountBalance.Posted>> shares) {
        Map<Id128, long[]> sides = new HashMap<>();
        for (SettlementPlan.Leg leg : SettlementPlan.of(payment).legs()) {
            boolean debitIsPaymentSide = ChartOfAccounts.kindOf(leg.debit()).orElse(null) != AccountKind.TRANSIT;
            sides.computeIfAbsent(leg.debit(), id -> new long[2])[debitIsPaymentSide ? 0 : 1] += payment.amountCentavos();
            boolean creditIsPaymentSide = ChartOfAccounts.kindOf(leg.credit()).orElse(null) == AccountKind.TRANSIT;
            sides.computeIfAbsent(leg.credit(), id -> new long[2])[creditIsPaymentSide ? 0 : 1] += payment.amountCentavos();
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

    private void judgeAccount(AccountKind kind, Id128 id, Cut judged, PaymentFlows flows,
            Map<Id128, List<AccountBalance.Posted>> postedAfter, RoundReport.Builder report, Set<Id128> pointed) {
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
                if (confirm(kind, id, disagrees, report) && kind == AccountKind.CUSTOMER
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
        report.mismatch(new Mismatch(disagrees.kind(), kind.name().toLowerCase(Locale.ROOT) + " " + id,
                disagrees.detail()));
        return true;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
