package io.pagora.local;

import io.pagora.ledger.domain.Account;
import io.pagora.ledger.domain.AccountFlags;
import io.pagora.kernel.Id128;
import io.pagora.ledger.domain.Ledger;
import io.pagora.ledger.domain.Transfer;
import io.pagora.settlement.domain.AccountKind;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.LegId;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.SettlementPlan;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The money invariants of a demo run, each answered PASS or FAIL with the evidence. They read the
 * ledger only through the {@link Ledger} port, so they judge TigerBeetle and the PostgreSQL ledger alike,
 * and they trust nothing the services say about themselves: the ledger, the read model and what the
 * load generator was told are compared with each other.
 */
final class InvariantChecks {

    /** One check's verdict. {@code problems} lists the first few offending items. */
    record Verdict(String name, boolean passed, String summary, List<String> problems) {}

    static final int PROBLEMS_LISTED_MAX = 10;

    /**
     * What may still be on its way on a running platform ({@code infra/local/pagora verify}): a payment accepted
     * less than {@code window} before {@code now} may not be final yet (its pending timeout plus a margin), and an
     * account in {@code movingAccounts} moved while it was read, so the read model may not show its last payments
     * yet. Both are counted as in flight, not as failures. {@link #NONE} (the demo report, which first waits for
     * every outcome) lets nothing be in flight.
     */
    record InFlight(Instant now, Duration window, Set<Id128> movingAccounts) {

        static final InFlight NONE = new InFlight(Instant.EPOCH, Duration.ZERO, Set.of());

        /** Accepted within the window: payment ids carry their acceptance millisecond in their top 48 bits. */
        boolean young(String paymentId) {
            if (window.isZero()) {
                return false;
            }
            Id128 id;
            try {
                id = Id128.parse(paymentId.strip());
            } catch (IllegalArgumentException e) {
                return false;
            }
            return Duration.between(Instant.ofEpochMilli(id.hi() >>> 16), now).compareTo(window) < 0;
        }
    }

    private final Ledger ledger;
    private final DemoAccounts accounts;
    private final List<ReadModel.Row> readModel;
    private final Map<UUID, Long> readModelDuplicates;
    private final AcceptedPayments acceptedPayments;
    private final InFlight inFlight;

    private Map<Id128, Account> ledgerAccounts;

    InvariantChecks(Ledger ledger, DemoAccounts accounts, List<ReadModel.Row> readModel,
            Map<UUID, Long> readModelDuplicates, AcceptedPayments acceptedPayments) {
        this(ledger, accounts, readModel, readModelDuplicates, acceptedPayments, InFlight.NONE, null);
    }

    /** {@code ledgerAccounts}: the accounts as read after the read model (null: looked up when first needed). */
    InvariantChecks(Ledger ledger, DemoAccounts accounts, List<ReadModel.Row> readModel,
            Map<UUID, Long> readModelDuplicates, AcceptedPayments acceptedPayments, InFlight inFlight,
            Map<Id128, Account> ledgerAccounts) {
        this.ledger = ledger;
        this.accounts = accounts;
        this.readModel = readModel;
        this.readModelDuplicates = readModelDuplicates;
        this.acceptedPayments = acceptedPayments;
        this.inFlight = inFlight;
        this.ledgerAccounts = ledgerAccounts;
    }

    List<Verdict> runAll() {
        return List.of(zeroSum(), limits(), readModelEqualsLedger(), noPaymentMissingOrDuplicated());
    }

    /** (a) Over every account the demo created: Σ debits = Σ credits, posted and pending. */
    Verdict zeroSum() {
        List<String> problems = new ArrayList<>();
        List<Id128> expected = accounts.allAccountIds();
        Map<Id128, Account> found = ledgerAccounts();
        for (Id128 id : expected) {
            if (!found.containsKey(id)) {
                problems.add("account " + id + " (" + describe(id) + ") is not in the ledger");
            }
        }
        long debitsPosted = 0;
        long creditsPosted = 0;
        long debitsPending = 0;
        long creditsPending = 0;
        for (Account account : found.values()) {
            debitsPosted = Math.addExact(debitsPosted, account.debitsPosted());
            creditsPosted = Math.addExact(creditsPosted, account.creditsPosted());
            debitsPending = Math.addExact(debitsPending, account.debitsPending());
            creditsPending = Math.addExact(creditsPending, account.creditsPending());
        }
        if (debitsPosted != creditsPosted) {
            problems.add("Σ debits_posted " + debitsPosted + " ≠ Σ credits_posted " + creditsPosted);
        }
        if (debitsPending != creditsPending) {
            problems.add("Σ debits_pending " + debitsPending + " ≠ Σ credits_pending " + creditsPending);
        }
        String summary = String.format("%d of %d accounts found (1 central bank, %d banks × reserve+transit, %d customers): "
                + "Σdebits_posted=%d Σcredits_posted=%d, Σdebits_pending=%d Σcredits_pending=%d",
                found.size(), expected.size(), accounts.reserveFundings().size(), accounts.customerFundings().size(),
                debitsPosted, creditsPosted, debitsPending, creditsPending);
        return verdict("(a) ledger zero-sum", problems, summary);
    }

    /** (b) No account with a limit is beyond it; customers and reserves must carry that limit. */
    Verdict limits() {
        List<String> problems = new ArrayList<>();
        int limited = 0;
        long lowestAvailable = Long.MAX_VALUE;
        for (Account account : ledgerAccounts().values()) {
            AccountKind kind = ChartOfAccounts.kindOf(account.id()).orElse(null);
            boolean mustBeLimited = kind == AccountKind.CUSTOMER || kind == AccountKind.RESERVE;
            boolean debitLimited = account.hasFlag(AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS);
            if (mustBeLimited && !debitLimited) {
                problems.add(describe(account.id()) + " " + account.id() + " lacks debits_must_not_exceed_credits");
            }
            if (debitLimited) {
                limited++;
                long available = account.creditsPosted() - account.debitsPosted() - account.debitsPending();
                lowestAvailable = Math.min(lowestAvailable, available);
                if (available < 0) {
                    problems.add(describe(account.id()) + " " + account.id() + " is below zero: credits_posted "
                            + account.creditsPosted() + " − debits_posted " + account.debitsPosted()
                            + " − debits_pending " + account.debitsPending() + " = " + available);
                }
            }
            if (account.hasFlag(AccountFlags.CREDITS_MUST_NOT_EXCEED_DEBITS)) {
                limited++;
                long available = account.debitsPosted() - account.creditsPosted() - account.creditsPending();
                if (available < 0) {
                    problems.add(describe(account.id()) + " " + account.id() + " exceeds its credit limit by " + -available);
                }
            }
        }
        String summary = String.format("%d limited accounts, lowest available balance %s centavos", limited,
                limited == 0 ? "-" : Long.toString(lowestAvailable));
        return verdict("(b) no limited account below zero", problems, summary);
    }

    /**
     * (c) For every final payment of the read model, SETTLED ⇔ all its post legs are in the ledger (with its
     * amount), REJECTED/EXPIRED ⇔ none is; and every account's posted balance equals its seeded funding plus
     * the legs of the SETTLED payments that touch it.
     */
    Verdict readModelEqualsLedger() {
        List<String> problems = new ArrayList<>();
        Map<Id128, Long> expectedBalances = new LinkedHashMap<>(accounts.seededBalances());
        LegTally tally = new LegTally();
        // In chunks of one ledger lookup each: a bench run holds millions of payments, and their post legs
        // must not all be in memory at once (a run of 5.6 million ran out of a 4 GiB heap that way).
        List<Payment> payments = new ArrayList<>(PAYMENTS_PER_LOOKUP);
        List<ReadModel.Row> finalRows = new ArrayList<>(PAYMENTS_PER_LOOKUP);
        for (ReadModel.Row row : readModel) {
            if (!row.isFinal()) {
                continue; // (d) reports payments without a final state
            }
            try {
                payments.add(new Payment(new PaymentId(Id128.fromUuid(row.paymentId())), row.payer(), row.payee(),
                        row.amountCentavos()));
                finalRows.add(row);
            } catch (IllegalArgumentException e) {
                problems.add("payment " + row.paymentId() + " is not a valid payment: " + e.getMessage());
            }
            if (payments.size() == PAYMENTS_PER_LOOKUP) {
                checkLegs(payments, finalRows, expectedBalances, tally, problems);
                payments.clear();
                finalRows.clear();
            }
        }
        checkLegs(payments, finalRows, expectedBalances, tally, problems);
        Map<Id128, Account> found = ledgerAccounts();
        int balancesChecked = 0;
        int balanceMismatches = 0;
        int moving = 0;
        for (Map.Entry<Id128, Long> expected : expectedBalances.entrySet()) {
            Account account = found.get(expected.getKey());
            if (account == null) {
                continue; // (a) reports it
            }
            if (inFlight.movingAccounts().contains(account.id())) {
                moving++;
                continue;
            }
            balancesChecked++;
            long actual = account.creditsPosted() - account.debitsPosted();
            if (actual != expected.getValue()) {
                balanceMismatches++;
                problems.add(describe(account.id()) + " " + account.id() + ": ledger balance " + actual
                        + " ≠ funding + settled payments " + expected.getValue() + " (difference " + (actual - expected.getValue()) + ")");
            }
        }
        String summary = String.format("%d of %d SETTLED have every post leg, %d of %d REJECTED/EXPIRED have none "
                + "(%d post-leg ids looked up in batches of ≤ %d); %d of %d account balances = funding + Σreceived − Σsent%s",
                tally.settledComplete, tally.settled, tally.unsettledClean, tally.unsettled, tally.postIds,
                Ledger.BATCH_SIZE_MAX, balancesChecked - balanceMismatches, balancesChecked,
                inFlight == InFlight.NONE ? "" : " (" + moving + " more moved while read: in flight, not judged)");
        return verdict("(c) read model = ledger", problems, summary);
    }

    /**
     * (d) Every payment id the load generator got a 2xx for is in the read model exactly once, in a final
     * state; a re-sent idempotency key got the same id; no payment exists that nobody was told about
     * (beyond requests that got no answer).
     */
    Verdict noPaymentMissingOrDuplicated() {
        List<String> problems = new ArrayList<>();
        Map<String, String> idByKey = new HashMap<>();
        Map<String, String> keyById = new HashMap<>();
        int duplicatesResent = 0;
        for (AcceptedPayments.Acceptance acceptance : acceptedPayments.accepted()) {
            if (acceptance.duplicate()) {
                duplicatesResent++;
            }
            String id = normalize(acceptance.paymentId());
            String earlierId = idByKey.putIfAbsent(acceptance.idempotencyKey(), id);
            if (earlierId != null && !earlierId.equals(id)) {
                problem(problems, "key " + acceptance.idempotencyKey() + " got two payment ids: " + earlierId + " and " + id);
            }
            String earlierKey = keyById.putIfAbsent(id, acceptance.idempotencyKey());
            if (earlierKey != null && !earlierKey.equals(acceptance.idempotencyKey())) {
                problem(problems, "payment " + id + " was returned for two keys: " + earlierKey + " and " + acceptance.idempotencyKey());
            }
        }
        Map<String, ReadModel.Row> byId = new HashMap<>();
        for (ReadModel.Row row : readModel) {
            byId.put(normalize(row.paymentId().toString()), row);
        }
        readModelDuplicates.forEach((id, count) -> problem(problems, "payment " + id + " is " + count + " times in the read model"));
        int missing = 0;
        int notFinal = 0;
        int young = 0;
        for (String id : keyById.keySet()) {
            ReadModel.Row row = byId.get(id);
            if ((row == null || !row.isFinal()) && inFlight.young(id)) {
                young++;
            } else if (row == null) {
                missing++;
                problem(problems, "accepted payment " + id + " (key " + keyById.get(id) + ") is not in the read model");
            } else if (!row.isFinal()) {
                notFinal++;
                problem(problems, "accepted payment " + id + " has no final state (status " + row.status() + ")");
            }
        }
        if (inFlight != InFlight.NONE) {
            // While it runs, payments of other clients than the load generator must become final all the same.
            for (Map.Entry<String, ReadModel.Row> entry : byId.entrySet()) {
                if (entry.getValue().isFinal() || keyById.containsKey(entry.getKey())) {
                    continue;
                }
                if (inFlight.young(entry.getKey())) {
                    young++;
                } else {
                    notFinal++;
                    problem(problems, "payment " + entry.getKey() + " has no final state (status "
                            + entry.getValue().status() + ") after its pending timeout and margin");
                }
            }
        }
        Set<String> unacknowledged = new HashSet<>(byId.keySet());
        unacknowledged.removeAll(keyById.keySet());
        // The load generator may not have logged the answer of a payment accepted a moment ago yet.
        unacknowledged.removeIf(inFlight::young);
        // A running platform may also serve other clients than the load generator: there the count is information.
        if (inFlight == InFlight.NONE && unacknowledged.size() > acceptedPayments.unanswered()) {
            problem(problems, unacknowledged.size() + " payments in the read model were never acknowledged to the client, "
                    + "more than the " + acceptedPayments.unanswered() + " requests that got no answer; e.g. "
                    + unacknowledged.stream().sorted().limit(3).toList());
        }
        String summary = String.format("%d accepted payment ids (%d answers, %d of them deliberate duplicate re-sends "
                + "answered with the original id): %d missing, %d not final, %d duplicated in the read model; "
                + "%d read-model payments unacknowledged (%d requests unanswered)%s",
                keyById.size(), acceptedPayments.accepted().size(), duplicatesResent, missing, notFinal,
                readModelDuplicates.size(), unacknowledged.size(), acceptedPayments.unanswered(),
                inFlight == InFlight.NONE ? "" : "; " + young + " accepted less than " + inFlight.window().toSeconds()
                        + " s ago and not final yet: in flight");
        return verdict("(d) no payment missing or duplicated", problems, summary);
    }

    /** Post legs looked up per ledger request: three legs per interbank payment. */
    static final int PAYMENTS_PER_LOOKUP = Ledger.BATCH_SIZE_MAX / 3;

    /** Problems kept in memory per check (the verdict lists the first few and counts the rest). */
    static final int PROBLEMS_KEPT_MAX = 10_000;

    /** What (c) counted over all chunks. */
    private static final class LegTally {
        long settled;
        long settledComplete;
        long unsettled;
        long unsettledClean;
        long postIds;
    }

    /** (c) for one chunk of final payments: one ledger lookup of their post legs, then each payment judged. */
    private void checkLegs(List<Payment> payments, List<ReadModel.Row> finalRows, Map<Id128, Long> expectedBalances,
            LegTally tally, List<String> problems) {
        if (payments.isEmpty()) {
            return;
        }
        List<Id128> postIds = new ArrayList<>(payments.size() * 3);
        for (Payment payment : payments) {
            for (SettlementPlan.Leg leg : SettlementPlan.of(payment).legs()) {
                postIds.add(LegId.of(payment.id(), LegId.Phase.POST, leg.number()));
            }
        }
        tally.postIds += postIds.size();
        Map<Id128, Transfer> posts = lookup(postIds, ledger::lookupTransfers, Transfer::id);
        for (int i = 0; i < payments.size(); i++) {
            Payment payment = payments.get(i);
            ReadModel.Row row = finalRows.get(i);
            SettlementPlan plan = SettlementPlan.of(payment);
            int present = 0;
            for (SettlementPlan.Leg leg : plan.legs()) {
                Transfer post = posts.get(LegId.of(payment.id(), LegId.Phase.POST, leg.number()));
                if (post == null) {
                    continue;
                }
                present++;
                Id128 pendingId = LegId.of(payment.id(), LegId.Phase.PENDING, leg.number());
                if (post.amount() != payment.amountCentavos() || !post.pendingId().equals(pendingId)) {
                    problem(problems, "payment " + payment.id() + " leg " + leg.number() + ": posted " + post.amount()
                            + " of pending " + post.pendingId() + ", read model says " + payment.amountCentavos()
                            + " of " + pendingId);
                }
            }
            if (ReadModel.SETTLED.equals(row.status())) {
                tally.settled++;
                if (present == plan.legCount()) {
                    tally.settledComplete++;
                } else {
                    problem(problems, "payment " + payment.id() + " is SETTLED in the read model but " + present
                            + " of " + plan.legCount() + " post legs are in the ledger");
                }
                for (SettlementPlan.Leg leg : plan.legs()) {
                    move(expectedBalances, leg.debit(), -payment.amountCentavos(), payment, problems);
                    move(expectedBalances, leg.credit(), payment.amountCentavos(), payment, problems);
                }
            } else {
                tally.unsettled++;
                if (present == 0) {
                    tally.unsettledClean++;
                } else {
                    problem(problems, "payment " + payment.id() + " is " + row.status() + " in the read model but "
                            + present + " of " + plan.legCount() + " post legs are in the ledger");
                }
            }
        }
    }

    /** Keeps at most {@link #PROBLEMS_KEPT_MAX}: a broken run must still be reported, not run out of memory. */
    private static void problem(List<String> problems, String problem) {
        if (problems.size() < PROBLEMS_KEPT_MAX) {
            problems.add(problem);
        } else if (problems.size() == PROBLEMS_KEPT_MAX) {
            problems.add("… more problems not kept (at most " + PROBLEMS_KEPT_MAX + " are)");
        }
    }

    private Map<Id128, Account> ledgerAccounts() {
        if (ledgerAccounts == null) {
            ledgerAccounts = lookup(accounts.allAccountIds(), ledger::lookupAccounts, Account::id);
        }
        return ledgerAccounts;
    }

    /** Looks ids up in requests of at most {@link Ledger#BATCH_SIZE_MAX}. */
    static <T> Map<Id128, T> lookup(List<Id128> ids, Function<List<Id128>, List<T>> lookup, Function<T, Id128> idOf) {
        Map<Id128, T> found = new LinkedHashMap<>();
        for (int from = 0; from < ids.size(); from += Ledger.BATCH_SIZE_MAX) {
            List<Id128> batch = ids.subList(from, Math.min(ids.size(), from + Ledger.BATCH_SIZE_MAX));
            for (T item : lookup.apply(List.copyOf(batch))) {
                found.put(idOf.apply(item), item);
            }
        }
        return found;
    }

    private static void move(Map<Id128, Long> balances, Id128 account, long amount, Payment payment, List<String> problems) {
        if (!balances.containsKey(account)) {
            problems.add("payment " + payment.id() + " moves money on " + describe(account) + " " + account
                    + ", which the demo did not create");
            balances.put(account, 0L);
        }
        balances.merge(account, amount, Math::addExact);
    }

    static String describe(Id128 account) {
        AccountKind kind = ChartOfAccounts.kindOf(account).orElse(null);
        if (kind == null) {
            return "account";
        }
        return switch (kind) {
            case CENTRAL_BANK -> "central bank";
            case RESERVE -> "reserve of bank " + ChartOfAccounts.bankOf(account).map(Object::toString).orElse("?");
            case TRANSIT -> "transit of bank " + ChartOfAccounts.bankOf(account).map(Object::toString).orElse("?");
            case CUSTOMER -> "customer";
        };
    }

    /** Payment ids as 32 lower-case hex digits, whatever form (UUID with dashes, hex) they came in. */
    static String normalize(String paymentId) {
        try {
            return Id128.parse(paymentId.strip()).toString();
        } catch (IllegalArgumentException e) {
            return paymentId.strip();
        }
    }

    private static Verdict verdict(String name, List<String> problems, String summary) {
        List<String> listed = problems.size() <= PROBLEMS_LISTED_MAX ? problems
                : new ArrayList<>(problems.subList(0, PROBLEMS_LISTED_MAX));
        if (problems.size() > PROBLEMS_LISTED_MAX) {
            listed.add("… and " + (problems.size() - PROBLEMS_LISTED_MAX) + " more");
        }
        return new Verdict(name, problems.isEmpty(), summary, List.copyOf(listed));
    }
}
