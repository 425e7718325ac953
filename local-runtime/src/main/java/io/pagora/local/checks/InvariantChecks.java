package io.pagora.local.checks;

import io.pagora.events.ReturnReason;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.invariants.Finding;
import io.pagora.ledger.port.invariants.LedgerBooks;
import io.pagora.local.readside.OutcomeLog;
import io.pagora.local.readside.ReadModel;
import io.pagora.local.runfiles.AcceptedPayments;
import io.pagora.local.runfiles.DemoAccounts;
import io.pagora.settlement.domain.AccountKind;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.invariants.Claim;
import io.pagora.settlement.invariants.FinalStates;
import io.pagora.settlement.invariants.LedgerAgreement;
import io.pagora.settlement.invariants.Movement;
import io.pagora.settlement.invariants.PixBooks;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

// Over 400 lines: the money invariants judge the same inputs side by side, each with its evidence.
/**
 * The money invariants of a demo run, each answered PASS or FAIL with the evidence: the one money
 * invariant checker ({@link LedgerBooks}, {@code io.pagora.settlement.invariants}) fed with what the demo
 * knows (the fundings it made, the read model's rows, what the load generator was told) over the ledger's
 * whole account set ({@link LedgerAccountSet}: every account, whoever opened it, not only those the demo did),
 * plus the checks that only concern the load generator's log (idempotency keys, unacknowledged payments,
 * what may still be in flight). The ledger is read only through the {@link Ledger} port, so TigerBeetle
 * and the PostgreSQL ledger are judged alike, and nothing the services say about themselves is trusted.
 */
public final class InvariantChecks {

    /** One check's verdict. {@code problems} lists the first few offending items. */
    public record Verdict(String name, boolean passed, String summary, List<String> problems) {

        /** The finding under the report's label, its violations cut to the first {@link #PROBLEMS_LISTED_MAX}. */
        static Verdict of(String name, String summary, Finding finding) {
            List<String> violations = finding.violations();
            List<String> listed =
                    new ArrayList<>(violations.subList(0, Math.min(violations.size(), PROBLEMS_LISTED_MAX)));
            if (violations.size() > PROBLEMS_LISTED_MAX) {
                listed.add("… and " + (violations.size() - PROBLEMS_LISTED_MAX) + " more");
            }
            return new Verdict(name, finding.holds(), summary, List.copyOf(listed));
        }
    }

    public static final int PROBLEMS_LISTED_MAX = 10;

    /**
     * What may still be on its way on a running platform ({@code infra/local/pagora verify}): a payment accepted
     * less than {@code window} before {@code now} may not be final yet (its pending timeout plus a margin), and an
     * account in {@code movingAccounts} moved while it was read, so the read model may not show its last payments
     * yet. Both are counted as in flight, not as failures. Payments in {@code settledAfterCut} were posted after
     * the ledger read the balances are judged at ({@link ConsistentCut}): they are left out of the balances (c)
     * judges, not out of (d). {@link #NONE} (the demo report, which first waits for every outcome) lets nothing
     * be in flight.
     */
    public record InFlight(Instant now, Duration window, Set<Id128> movingAccounts, Set<UUID> settledAfterCut) {

        static final InFlight NONE = new InFlight(Instant.EPOCH, Duration.ZERO, Set.of(), Set.of());

        /** Accepted within the window: payment ids carry their acceptance millisecond in their top 48 bits. */
        public boolean young(String paymentId) {
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
    private final OutcomeLog outcomes;
    private final AcceptedPayments acceptedPayments;
    private final InFlight inFlight;

    private LedgerAccountSet accountSet;
    private LedgerBooks books;

    /**
     * The demo report's checks: the ledger's account set walked when first needed ({@link LedgerAccountSet.Bound#DEFAULT}),
     * every funding from {@code accounts} (the demo made them all: money on any other account is unexplained).
     */
    public InvariantChecks(
            Ledger ledger,
            DemoAccounts accounts,
            List<ReadModel.Row> readModel,
            OutcomeLog outcomes,
            AcceptedPayments acceptedPayments) {
        this(ledger, accounts, readModel, outcomes, acceptedPayments, InFlight.NONE, null, null);
    }

    /**
     * @param outcomes every final state published on the outcomes topic, read after the read model (a payment
     *     told two different final states shows only there: the read model keeps the first)
     * @param accountSet the ledger's account set as walked (null: walked when first needed)
     * @param books the accounts as judged, the account set's among them (null: read when first needed)
     */
    public InvariantChecks(
            Ledger ledger,
            DemoAccounts accounts,
            List<ReadModel.Row> readModel,
            OutcomeLog outcomes,
            AcceptedPayments acceptedPayments,
            InFlight inFlight,
            LedgerAccountSet accountSet,
            LedgerBooks books) {
        Check.that(books == null || accountSet != null, "books judged without the ledger's account set");
        this.ledger = ledger;
        this.accounts = accounts;
        this.readModel = readModel;
        this.outcomes = outcomes;
        this.acceptedPayments = acceptedPayments;
        this.inFlight = inFlight;
        this.accountSet = accountSet;
        this.books = books;
    }

    public List<Verdict> runAll() {
        return List.of(zeroSum(), limits(), readModelEqualsLedger(), noPaymentMissingOrDuplicated());
    }

    /**
     * (a) Over the ledger's whole account set and every account the demo created: each is in the ledger; Σ debits =
     * Σ credits, posted and pending; and the walk of the account set reached its newest account.
     */
    Verdict zeroSum() {
        Finding finding = books().zeroSum();
        List<String> violations = new ArrayList<>(accountSet().problems());
        violations.addAll(finding.violations());
        String summary = finding.summary() + " (" + kinds(books().ids()) + "; "
                + accountSet().summary() + ")";
        return Verdict.of("(a) ledger zero-sum", summary, new Finding(finding.invariant(), summary, violations));
    }

    /** "1 central bank, N banks × reserve+transit, M customers[, R returnable accounts][, returns control][, K other accounts]". */
    private static String kinds(List<Id128> ids) {
        Map<AccountKind, Integer> counts = new EnumMap<>(AccountKind.class);
        int others = 0;
        for (Id128 id : ids) {
            if (LedgerAccountSet.inChart(id)) {
                counts.merge(ChartOfAccounts.kindOf(id).orElseThrow(), 1, Integer::sum);
            } else {
                others++;
            }
        }
        int returnables = counts.getOrDefault(AccountKind.RETURNABLE, 0);
        int holds = counts.getOrDefault(AccountKind.FRAUD_HOLDS, 0);
        return String.format(
                "%d central bank, %d banks × reserve+transit, %d customers%s%s%s%s",
                counts.getOrDefault(AccountKind.CENTRAL_BANK, 0),
                counts.getOrDefault(AccountKind.RESERVE, 0),
                counts.getOrDefault(AccountKind.CUSTOMER, 0),
                returnables == 0
                        ? ""
                        : ", " + returnables + (returnables == 1 ? " returnable account" : " returnable accounts"),
                counts.containsKey(AccountKind.RETURNS_CONTROL) ? ", returns control" : "",
                holds == 0 ? "" : ", " + holds + " fraud holds",
                others == 0 ? "" : ", " + others + " other accounts");
    }

    /** (b) No account with a limit is beyond it; customers and reserves must carry that limit. */
    Verdict limits() {
        Finding finding = books().limits(PixBooks.MUST_BE_DEBIT_LIMITED);
        return Verdict.of("(b) no limited account below zero", finding.summary(), finding);
    }

    /**
     * (c) For every final payment of the read model, SETTLED ⇔ all its post legs are in the ledger (with its
     * amount), REJECTED/EXPIRED ⇔ none is; and every account's posted debits and credits equal its seeded
     * funding plus the legs of the SETTLED payments that touch it. A return's legs include its returned amount, and
     * every returnable account the ledger holds was opened once with its original's amount as the read model has it:
     * so each original's returnable account = its amount − its returns the read model shows SETTLED, exactly.
     */
    Verdict readModelEqualsLedger() {
        List<String> invalid = new ArrayList<>();
        List<Movement> movements = new ArrayList<>(accounts.fundings());
        movements.addAll(returnableOpenings(invalid));
        Finding finding = LedgerAgreement.check(
                ledger,
                READ_MODEL,
                books(),
                movements,
                () -> claims(invalid),
                inFlight.movingAccounts(),
                LedgerAgreement.Traces.POSTS_ONLY);
        List<String> violations = new ArrayList<>(invalid);
        violations.addAll(finding.violations());
        return verdict("(c) read model = ledger", violations, finding.summary());
    }

    /** The read model's final rows as claims, made one at a time (a bench run holds millions); invalid rows go to {@code invalid}. */
    private Iterator<Claim> claims(List<String> invalid) {
        Iterator<ReadModel.Row> rows = readModel.iterator();
        return new Iterator<>() {
            private Claim next = advance();

            private Claim advance() {
                while (rows.hasNext()) {
                    ReadModel.Row row = rows.next();
                    if (!row.isFinal()) {
                        continue; // (d) reports payments without a final state
                    }
                    if (inFlight.settledAfterCut().contains(row.paymentId())) {
                        continue; // posted after the balances were read: the next verify judges it
                    }
                    try {
                        return toClaim(row);
                    } catch (IllegalArgumentException e) {
                        problem(invalid, "payment " + row.paymentId() + " is not a valid payment: " + e.getMessage());
                    }
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Claim next() {
                Claim current = next;
                next = advance();
                return current;
            }
        };
    }

    /**
     * The opening of every returnable account the ledger holds (returns control → the account, its original's amount,
     * once at the first return): the original as the read model has it. An account whose original the read model
     * does not hold, or not SETTLED, is a violation.
     */
    private List<Movement> returnableOpenings(List<String> invalid) {
        Map<PaymentId, Id128> returnables = new LinkedHashMap<>();
        for (Id128 account : books().ids()) {
            ChartOfAccounts.paymentOfReturnable(account).ifPresent(original -> returnables.put(original, account));
        }
        List<Movement> openings = new ArrayList<>(returnables.size());
        if (returnables.isEmpty()) {
            return openings;
        }
        for (ReadModel.Row row : readModel) {
            Id128 account = returnables.remove(new PaymentId(Id128.fromUuid(row.paymentId())));
            if (account == null) {
                continue;
            }
            if (!ReadModel.SETTLED.equals(row.status())) {
                problem(
                        invalid,
                        "payment " + row.paymentId() + " has a returnable account, but is " + row.status()
                                + " in the read model: only a settled payment is returned");
            }
            openings.add(new Movement(ChartOfAccounts.returnsControl(), account, row.amountCentavos()));
        }
        returnables
                .keySet()
                .forEach(original -> problem(
                        invalid,
                        "the ledger holds a returnable account of payment " + original
                                + ", which the read model does not hold"));
        return openings;
    }

    /** @throws IllegalArgumentException if the row does not describe a payment (or a return) */
    private static Claim toClaim(ReadModel.Row row) {
        Payment.ReturnOf returnOf = null;
        if (row.isReturn()) {
            ReturnReason reason = ReturnReason.ofCode(row.returnReason())
                    .orElseThrow(() -> new IllegalArgumentException(
                            "return reason " + row.returnReason() + " is no PIX return reason"));
            returnOf = new Payment.ReturnOf(new PaymentId(row.returnOf()), 0, reason.number);
        }
        return new Claim(
                new Payment(
                        new PaymentId(Id128.fromUuid(row.paymentId())),
                        row.payer(),
                        row.payee(),
                        row.amountCentavos(),
                        0,
                        returnOf),
                row.status(),
                row.reason());
    }

    /** The row as a claim, or null if it does not describe a payment ((c) reports it). */
    private static Claim claimOrNull(ReadModel.Row row) {
        try {
            return toClaim(row);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * (d) Every payment id the load generator got a 2xx for is in the read model, in a final state; a re-sent
     * idempotency key got the same id; no payment was published two different final states (the outcomes topic)
     * and every final payment of the read model has its outcome there; no payment exists that nobody was told
     * about (beyond requests that got no answer).
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
                problem(
                        problems,
                        "key " + acceptance.idempotencyKey() + " got two payment ids: " + earlierId + " and " + id);
            }
            String earlierKey = keyById.putIfAbsent(id, acceptance.idempotencyKey());
            if (earlierKey != null && !earlierKey.equals(acceptance.idempotencyKey())) {
                problem(
                        problems,
                        "payment " + id + " was returned for two keys: " + earlierKey + " and "
                                + acceptance.idempotencyKey());
            }
        }
        Map<String, ReadModel.Row> byId = new HashMap<>();
        for (ReadModel.Row row : readModel) {
            byId.put(normalize(row.paymentId().toString()), row);
        }
        List<String> twoFinalStates = outcomes.conflicting();
        twoFinalStates.forEach(conflict -> problem(
                problems, "payment " + conflict.replace(" [", " has two final states on the " + "outcomes topic: [")));
        int withoutOutcome = 0;
        for (Map.Entry<String, ReadModel.Row> entry : byId.entrySet()) {
            if (entry.getValue().isFinal() && !outcomes.statusesByPayment().containsKey(entry.getKey())) {
                withoutOutcome++;
                problem(
                        problems,
                        "payment " + entry.getKey() + " is " + entry.getValue().status()
                                + " in the read model, but no outcome on the outcomes topic says so");
            }
        }
        // Returns are asked for by the participant banks (the bank simulator), not the load generator: each must be
        // final all the same, and return a payment the read model holds SETTLED.
        Set<String> returns = new HashSet<>();
        int returnsSettled = 0;
        for (Map.Entry<String, ReadModel.Row> entry : byId.entrySet()) {
            ReadModel.Row row = entry.getValue();
            if (!row.isReturn()) {
                continue;
            }
            returns.add(entry.getKey());
            returnsSettled += ReadModel.SETTLED.equals(row.status()) ? 1 : 0;
            ReadModel.Row original = byId.get(normalize(new PaymentId(row.returnOf()).toString()));
            if (original == null || !ReadModel.SETTLED.equals(original.status())) {
                problem(
                        problems,
                        "return " + entry.getKey() + " returns payment " + new PaymentId(row.returnOf())
                                + ", which the read model "
                                + (original == null ? "does not hold" : "holds " + original.status()));
            }
        }
        // Accepted payments not final yet but accepted within the in-flight window are not judged.
        int young = 0;
        Map<PaymentId, Payment> judged = new LinkedHashMap<>();
        for (String id : returns) {
            ReadModel.Row row = byId.get(id);
            if (!row.isFinal() && inFlight.young(id)) {
                young++;
            } else {
                judged.put(PaymentId.parse(id), null);
            }
        }
        for (String id : keyById.keySet()) {
            ReadModel.Row row = byId.get(id);
            if ((row == null || !row.isFinal()) && inFlight.young(id)) {
                young++;
            } else {
                try {
                    judged.put(PaymentId.parse(id), null); // the load generator's log holds ids only
                } catch (IllegalArgumentException e) {
                    problem(
                            problems,
                            "accepted payment id " + id + " (key " + keyById.get(id) + ") is not a payment id");
                }
            }
        }
        Finding finalStates = FinalStates.check(
                READ_MODEL,
                judged,
                id -> {
                    ReadModel.Row row = byId.get(id.toString());
                    Claim claim = row == null ? null : claimOrNull(row);
                    return claim == null ? List.of() : List.of(claim);
                },
                true);
        finalStates.violations().forEach(violation -> problem(problems, violation));
        String open = openJudged(judged.keySet(), byId, outcomes);
        if (!open.isEmpty()) {
            problem(problems, open);
        }
        int notFinal = 0;
        if (inFlight != InFlight.NONE) {
            // While it runs, payments of other clients than the load generator must become final all the same.
            for (Map.Entry<String, ReadModel.Row> entry : byId.entrySet()) {
                if (entry.getValue().isFinal()
                        || keyById.containsKey(entry.getKey())
                        || returns.contains(entry.getKey())) {
                    continue;
                }
                if (inFlight.young(entry.getKey())) {
                    young++;
                } else {
                    notFinal++;
                    problem(
                            problems,
                            "payment " + entry.getKey() + " has no final state (status "
                                    + entry.getValue().status() + ") after its pending timeout and margin");
                }
            }
        }
        Set<String> unacknowledged = new HashSet<>(byId.keySet());
        unacknowledged.removeAll(keyById.keySet());
        unacknowledged.removeAll(returns);
        // The load generator may not have logged the answer of a payment accepted a moment ago yet.
        unacknowledged.removeIf(inFlight::young);
        // A running platform may also serve other clients than the load generator: there the count is information.
        if (inFlight == InFlight.NONE && unacknowledged.size() > acceptedPayments.unanswered()) {
            problem(
                    problems,
                    unacknowledged.size() + " payments in the read model were never acknowledged to the client, "
                            + "more than the " + acceptedPayments.unanswered() + " requests that got no answer; e.g. "
                            + unacknowledged.stream().sorted().limit(3).toList());
        }
        String summary = String.format(
                "%d accepted payment ids (%d answers, %d of them deliberate duplicate re-sends "
                        + "answered with the original id): %s; %d more not final; outcomes topic: %d payments, %d with two final "
                        + "states, %d final in the read model without an outcome; "
                        + "%d read-model payments unacknowledged (%d requests unanswered); %d returns asked by the participants, "
                        + "%d settled%s",
                keyById.size(),
                acceptedPayments.accepted().size(),
                duplicatesResent,
                finalStates.summary(),
                notFinal,
                outcomes.statusesByPayment().size(),
                twoFinalStates.size(),
                withoutOutcome,
                unacknowledged.size(),
                acceptedPayments.unanswered(),
                returns.size(),
                returnsSettled,
                inFlight == InFlight.NONE
                        ? ""
                        : "; " + young + " accepted less than "
                                + inFlight.window().toSeconds() + " s ago and not final yet: in flight");
        return verdict("(d) no payment missing or duplicated", problems, summary);
    }

    /**
     * What the judged payments the read model holds not final have in common, for the one who reads a failed run: how
     * many are returns the participants asked, when they were accepted (their ids' time), and how many the outcomes
     * topic, read after the read model, holds a final state for (a late outcome, not a lost one). Empty if none.
     */
    public static String openJudged(Set<PaymentId> judged, Map<String, ReadModel.Row> byId, OutcomeLog outcomes) {
        int open = 0;
        int returns = 0;
        int outcomeOnTopic = 0;
        long firstMillis = Long.MAX_VALUE;
        long lastMillis = Long.MIN_VALUE;
        for (PaymentId id : judged) {
            ReadModel.Row row = byId.get(id.toString());
            if (row == null || row.isFinal()) {
                continue;
            }
            open++;
            returns += row.isReturn() ? 1 : 0;
            outcomeOnTopic += outcomes.statusesByPayment().containsKey(id.toString()) ? 1 : 0;
            long issuedMillis = TimeOrderedIds.issuedAtMillis(id.value());
            firstMillis = Math.min(firstMillis, issuedMillis);
            lastMillis = Math.max(lastMillis, issuedMillis);
        }
        if (open == 0) {
            return "";
        }
        return String.format(
                "of the %d payments the read model holds not final: %d returns asked by the participants, "
                        + "accepted from %s to %s (their ids' time); the outcomes topic, read after the read model, holds a final "
                        + "state for %d",
                open, returns, Instant.ofEpochMilli(firstMillis), Instant.ofEpochMilli(lastMillis), outcomeOnTopic);
    }

    /** Problems kept in memory per check (the verdict lists the first few and counts the rest). */
    static final int PROBLEMS_KEPT_MAX = Finding.VIOLATIONS_KEPT_MAX;

    private static final String READ_MODEL = "the read model";

    /** Keeps at most {@link #PROBLEMS_KEPT_MAX}: a broken run must still be reported, not run out of memory. */
    private static void problem(List<String> problems, String problem) {
        if (problems.size() < PROBLEMS_KEPT_MAX) {
            problems.add(problem);
        } else if (problems.size() == PROBLEMS_KEPT_MAX) {
            problems.add("… more problems not kept (at most " + PROBLEMS_KEPT_MAX + " are)");
        }
    }

    private LedgerAccountSet accountSet() {
        if (accountSet == null) {
            accountSet = LedgerAccountSet.walk(ledger, LedgerAccountSet.Bound.DEFAULT);
        }
        return accountSet;
    }

    /** The accounts the demo created, then every other account of the ledger's set. */
    private LedgerBooks books() {
        if (books == null) {
            books = accountSet().books(ledger, accounts.allAccountIds());
        }
        return books;
    }

    /** Payment ids as 32 lower-case hex digits, whatever form (UUID with dashes, hex) they came in. */
    public static String normalize(String paymentId) {
        try {
            return Id128.parse(paymentId.strip()).toString();
        } catch (IllegalArgumentException e) {
            return paymentId.strip();
        }
    }

    private static Verdict verdict(String name, List<String> problems, String summary) {
        return Verdict.of(name, summary, new Finding(name, summary, problems));
    }
}
