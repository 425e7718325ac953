package io.pagora.reporting.reconciliation.application;

import io.pagora.ledger.domain.Account;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.domain.Ledger;
import io.pagora.ledger.domain.Transfer;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel.PaymentRow;
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
import io.pagora.settlement.domain.PaymentId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Compares the read model with the ledger, a bounded slice per {@link #round()}:
 * <ol>
 *   <li><b>Payments</b>, in payment id order (ids are time-ordered): every payment accepted more than
 *       {@code finalWithin} ago — its pending timeout, the expiry margin and the projection's lag — must be
 *       final, and its final state must match its post legs in the ledger ({@link PaymentFinality}). Each
 *       payment is judged once; a cursor remembers how far. A payment not final yet holds the cursor (it is
 *       judged again next round, and the lag grows) until it is {@value #STUCK_AFTER_FINAL_WITHINS} times
 *       {@code finalWithin} old: then it is STUCK. An outage the platform recovers from is lag, not mismatches.
 *   <li><b>Balances</b> of a slice of customer accounts (cycling through all of them) and of every bank's
 *       reserve and transit, at a consistent point: the ledger is read, then the read model, then the ledger
 *       again. An account that moved between the two ledger reads is deferred to a later round. One that
 *       held still but disagrees may be one whose last payment the read model has not projected yet, so it
 *       is only reported once it has disagreed, with the same ledger balance, for {@code confirmAfter}
 *       ({@link AccountBalance} says what must agree).
 * </ol>
 * Not thread-safe: one thread runs the rounds.
 */
public final class Reconciler {

    /**
     * A payment still not final this many {@code finalWithin}s after it was accepted is STUCK; before that,
     * a non-final payment (a clearing that is down and will recover) holds the cursor and is judged again.
     */
    static final int STUCK_AFTER_FINAL_WITHINS = 5;

    /** Payments judged per ledger lookup: at most three post legs each. */
    public static final int PAYMENTS_PER_LOOKUP = Ledger.BATCH_SIZE_MAX / 3;
    /** Banks tracked (two ledger accounts each). */
    static final int BANKS_MAX = 1_000;
    /** Accounts whose disagreement awaits confirmation; beyond this they are simply retried. */
    static final int SUSPECTS_MAX = 10_000;

    /**
     * @param finalWithin a payment accepted longer ago than this must be final and projected
     * @param startLookback at start, payments accepted this long before are the first judged
     * @param paymentLookupsPerRound ledger lookups of payments per round (each ≤ {@link #PAYMENTS_PER_LOOKUP})
     * @param accountsPerRound customer accounts whose balance is checked per round
     * @param balanceInterval the shortest time between two balance checks: the banks' flows are sums over every
     *     settled payment, so they are not recomputed at every round
     * @param confirmAfter how long a quiet account must disagree before it is reported
     * @param detailsMax mismatches kept with their details per round
     */
    public record Settings(Duration finalWithin, Duration startLookback, int paymentLookupsPerRound,
            int accountsPerRound, Duration balanceInterval, Duration confirmAfter, int detailsMax) {

        public Settings {
            Check.that(finalWithin.isPositive() && !startLookback.isNegative() && !confirmAfter.isNegative()
                    && !balanceInterval.isNegative(), "reconciliation durations must not be negative: %s %s %s %s",
                    finalWithin, startLookback, balanceInterval, confirmAfter);
            Check.that(paymentLookupsPerRound >= 1 && paymentLookupsPerRound <= 64,
                    "payment lookups per round must be 1..64: %d", paymentLookupsPerRound);
            Check.that(accountsPerRound >= 1 && accountsPerRound <= Ledger.BATCH_SIZE_MAX,
                    "accounts per round must be 1..%d: %d", Ledger.BATCH_SIZE_MAX, accountsPerRound);
            Check.that(detailsMax >= 1 && detailsMax <= 1_000, "details per round must be 1..1000: %d", detailsMax);
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

    private Id128 paymentCursor;
    private Instant paymentsCheckedThrough;
    private Id128 customerCursor = Id128.ZERO;
    private Instant balancesCheckedAt = Instant.EPOCH;
    private final TreeSet<BankId> banks = new TreeSet<>((a, b) -> Integer.compare(a.ispb(), b.ispb()));
    private final Map<Id128, Suspect> suspects = new HashMap<>();

    public Reconciler(Ledger ledger, ReconciliationReadModel readModel, Clock clock, Settings settings) {
        this.ledger = ledger;
        this.readModel = readModel;
        this.clock = clock;
        this.settings = settings;
        Instant start = clock.instant().minus(settings.startLookback());
        this.paymentCursor = idBoundAt(start);
        this.paymentsCheckedThrough = start;
    }

    public RoundReport round() {
        Instant now = clock.instant();
        RoundReport.Builder report = new RoundReport.Builder(settings.detailsMax());
        checkPayments(now, report);
        if (Duration.between(balancesCheckedAt, now).compareTo(settings.balanceInterval()) >= 0) {
            balancesCheckedAt = now;
            checkBalances(now, report);
        }
        report.paymentsCheckedThrough = paymentsCheckedThrough;
        return report.build();
    }

    // ------------------------------------------------------------------------------------------ payments

    private void checkPayments(Instant now, RoundReport.Builder report) {
        Instant cutoff = now.minus(settings.finalWithin());
        Id128 before = idBoundAt(cutoff);
        Instant stuckBefore = now.minus(settings.finalWithin().multipliedBy(STUCK_AFTER_FINAL_WITHINS));
        for (int lookup = 0; lookup < settings.paymentLookupsPerRound(); lookup++) {
            List<PaymentRow> rows = readModel.paymentsBetween(paymentCursor, before, PAYMENTS_PER_LOOKUP);
            Check.that(rows.size() <= PAYMENTS_PER_LOOKUP, "the read model answered %d payments", rows.size());
            Id128 held = judgePayments(rows, report, stuckBefore);
            if (held != null) {
                // Not final yet, and not long overdue (an outage the platform recovers from): judged again
                // next round, and the lag grows meanwhile; the payments after it wait with it.
                Id128 last = predecessor(held);
                if (last.compareTo(paymentCursor) > 0) {
                    paymentCursor = last;
                }
                paymentsCheckedThrough = acceptedAt(held);
                return;
            }
            if (rows.size() < PAYMENTS_PER_LOOKUP) {
                // Everything accepted before the cutoff is judged; the clock may step back: never move back.
                Id128 last = predecessor(before);
                if (last.compareTo(paymentCursor) > 0) {
                    paymentCursor = last;
                    paymentsCheckedThrough = cutoff;
                }
                report.paymentsCaughtUp = true;
                return;
            }
            paymentCursor = rows.getLast().paymentId();
            paymentsCheckedThrough = acceptedAt(paymentCursor);
        }
    }

    /**
     * Judges the rows in id order, up to the first that is not final yet but accepted after
     * {@code stuckBefore}: that one's id is returned (held for the next round) and the rest are not judged.
     * A non-final payment accepted before {@code stuckBefore} is STUCK.
     */
    private Id128 judgePayments(List<PaymentRow> rows, RoundReport.Builder report, Instant stuckBefore) {
        for (int i = 0; i < rows.size(); i++) {
            PaymentRow row = rows.get(i);
            if (row.status() == PaymentStatus.ACCEPTED && acceptedAt(row.paymentId()).isAfter(stuckBefore)) {
                judgeAll(rows.subList(0, i), report);
                return row.paymentId();
            }
        }
        judgeAll(rows, report);
        return null;
    }

    private static Instant acceptedAt(Id128 paymentId) {
        return Instant.ofEpochMilli(paymentId.hi() >>> 16);
    }

    private void judgeAll(List<PaymentRow> rows, RoundReport.Builder report) {
        List<Payment> payments = new ArrayList<>(rows.size());
        List<PaymentRow> judged = new ArrayList<>(rows.size());
        List<Id128> postIds = new ArrayList<>(rows.size() * 3);
        for (PaymentRow row : rows) {
            Payment payment;
            try {
                payment = new Payment(new PaymentId(row.paymentId()), row.payer(), row.payee(), row.amountCentavos());
            } catch (IllegalArgumentException e) {
                report.paymentsChecked++;
                report.mismatch(new Mismatch(MismatchKind.INVALID, "payment " + row.paymentId(), e.getMessage()));
                continue;
            }
            payments.add(payment);
            judged.add(row);
            postIds.addAll(PaymentFinality.postLegIds(payment));
        }
        Map<Id128, Transfer> posts = lookup(postIds, ledger::lookupTransfers, Transfer::id);
        for (int i = 0; i < payments.size(); i++) {
            report.paymentsChecked++;
            Verdict verdict = PaymentFinality.judge(payments.get(i), judged.get(i).status(), posts);
            if (verdict instanceof Verdict.Disagrees disagrees) {
                report.mismatch(new Mismatch(disagrees.kind(), "payment " + payments.get(i).id().value(),
                        disagrees.detail()));
            }
        }
    }

    // ------------------------------------------------------------------------------------------ balances

    private void checkBalances(Instant now, RoundReport.Builder report) {
        List<Id128> customers = readModel.customersAfter(customerCursor, settings.accountsPerRound());
        Check.that(customers.size() <= settings.accountsPerRound(), "the read model answered %d accounts",
                customers.size());
        customerCursor = customers.size() < settings.accountsPerRound() ? Id128.ZERO : customers.getLast();
        List<BankId> knownBanks = List.copyOf(banks);
        List<Id128> ids = new ArrayList<>(customers);
        for (BankId bank : knownBanks) {
            ids.add(ChartOfAccounts.reserve(bank));
            ids.add(ChartOfAccounts.transit(bank));
        }
        Map<Id128, Account> before = lookup(ids, ledger::lookupAccounts, Account::id);
        Map<Id128, PaymentFlows> customerFlows = readModel.customerFlows(customers);
        Map<BankId, PaymentFlows> bankFlows = readModel.bankFlows();
        Map<Id128, Account> after = lookup(ids, ledger::lookupAccounts, Account::id);
        for (Id128 customer : customers) {
            judgeAccount(AccountKind.CUSTOMER, customer, before, after,
                    customerFlows.getOrDefault(customer, PaymentFlows.NONE), now, report);
        }
        for (BankId bank : knownBanks) {
            PaymentFlows flows = bankFlows.getOrDefault(bank, PaymentFlows.NONE);
            judgeAccount(AccountKind.RESERVE, ChartOfAccounts.reserve(bank), before, after, flows, now, report);
            judgeAccount(AccountKind.TRANSIT, ChartOfAccounts.transit(bank), before, after, flows, now, report);
        }
        for (BankId bank : bankFlows.keySet()) {
            if (!banks.contains(bank) && banks.size() < BANKS_MAX) {
                banks.add(bank); // read before the read model from the next round on
                report.accountsDeferred += 2;
            }
        }
    }

    private void judgeAccount(AccountKind kind, Id128 id, Map<Id128, Account> before, Map<Id128, Account> after,
            PaymentFlows flows, Instant now, RoundReport.Builder report) {
        Account first = before.get(id);
        Account second = after.get(id);
        Verdict verdict = first == null || second == null
                ? new Verdict.Disagrees(MismatchKind.BALANCE, "the read model has settled payments on it, the ledger has no such account")
                : AccountBalance.judge(kind, first, second, flows);
        switch (verdict) {
            case Verdict.Agrees agrees -> {
                report.accountsChecked++;
                suspects.remove(id);
            }
            case Verdict.Deferred deferred -> report.accountsDeferred++;
            case Verdict.Disagrees disagrees -> confirm(kind, id, second, disagrees, now, report);
        }
    }

    /** Reports a quiet account's disagreement once it has lasted {@code confirmAfter} on the same balance. */
    private void confirm(AccountKind kind, Id128 id, Account account, Verdict.Disagrees disagrees, Instant now,
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
            return;
        }
        if (Duration.between(suspect.since(), now).compareTo(settings.confirmAfter()) < 0) {
            report.accountsDeferred++;
            return;
        }
        report.accountsChecked++;
        if (!suspect.reported()) {
            suspects.put(id, new Suspect(debits, credits, suspect.since(), true));
            report.mismatch(new Mismatch(disagrees.kind(), kind.name().toLowerCase(Locale.ROOT) + " " + id,
                    disagrees.detail()));
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    /** Looks ids up in requests of at most {@link Ledger#BATCH_SIZE_MAX}. */
    static <T> Map<Id128, T> lookup(List<Id128> ids, Function<List<Id128>, List<T>> lookup, Function<T, Id128> idOf) {
        Map<Id128, T> found = new LinkedHashMap<>();
        for (int from = 0; from < ids.size(); from += Ledger.BATCH_SIZE_MAX) {
            List<Id128> batch = List.copyOf(ids.subList(from, Math.min(ids.size(), from + Ledger.BATCH_SIZE_MAX)));
            for (T item : lookup.apply(batch)) {
                found.put(idOf.apply(item), item);
            }
        }
        return found;
    }

    /** The smallest payment id of a millisecond (ids carry their millisecond in the top 48 bits). */
    static Id128 idBoundAt(Instant instant) {
        return new Id128(Math.max(0, instant.toEpochMilli()) << 16, 0);
    }

    private static Id128 predecessor(Id128 id) {
        return id.lo() != 0 ? new Id128(id.hi(), id.lo() - 1) : id.hi() == 0 ? Id128.ZERO : new Id128(id.hi() - 1, -1L);
    }
}
