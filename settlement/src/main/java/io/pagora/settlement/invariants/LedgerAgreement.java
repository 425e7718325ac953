package io.pagora.settlement.invariants;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.invariants.Finding;
import io.pagora.ledger.port.invariants.LedgerBooks;
import io.pagora.settlement.domain.LegId;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.SettlementPlan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The claims of a source outside the ledger (the read model, or the published outcomes) agree with the
 * ledger, transfer by transfer and account by account: SETTLED ⇔ every post leg is in the ledger (for the
 * payment's amount, posting its own pending leg), any other final state ⇔ none is; and every account's
 * posted debits and credits equal its fundings plus the legs of exactly the SETTLED payments. With
 * {@link Traces#ALL_PHASES} the other outcomes must also leave their traces: a receiving bank's refusal
 * voided every leg, a refusal by the ledger (insufficient funds or reserve, a return beyond what is left, ...)
 * reserved nothing, everything else reserved every leg, and a settled payment voided nothing.
 */
public final class LedgerAgreement {

    /** Which of a payment's legs are looked up: posts only (cheapest, for millions of payments), or every phase. */
    public enum Traces {
        POSTS_ONLY(1),
        ALL_PHASES(3);

        private final int phases;

        Traces(int phases) {
            this.phases = phases;
        }

        /** Payments per ledger lookup: every leg of every phase of one chunk fits one request. */
        int paymentsPerLookup() {
            return Ledger.BATCH_SIZE_MAX / (LegId.LEGS_MAX * phases);
        }
    }

    private final Ledger ledger;
    private final String source;
    private final Traces traces;
    private final Finding.Violations violations = new Finding.Violations();
    private final Map<Id128, long[]> expectedDebitsCredits = new LinkedHashMap<>();
    private long settled;
    private long settledComplete;
    private long unsettled;
    private long unsettledClean;
    private long legIdsLookedUp;

    private LedgerAgreement(Ledger ledger, String source, Traces traces) {
        this.ledger = ledger;
        this.source = source;
        this.traces = traces;
    }

    /**
     * @param source what the claims are, for messages ("the read model")
     * @param books the accounts as read after the claims (the closed set money moved among)
     * @param fundings every posted movement that is not a payment's leg
     * @param finalClaims final claims, one per payment (claims not final are skipped: {@link FinalStates} judges them)
     * @param moving accounts that moved while they were read: their balances are in flight, not judged
     */
    public static Finding check(
            Ledger ledger,
            String source,
            LedgerBooks books,
            List<Movement> fundings,
            Iterable<Claim> finalClaims,
            Set<Id128> moving,
            Traces traces) {
        LedgerAgreement agreement = new LedgerAgreement(ledger, source, traces);
        for (Id128 id : books.ids()) {
            agreement.expectedDebitsCredits.put(id, new long[2]);
        }
        for (Movement funding : fundings) {
            agreement.move(funding.debit(), funding.credit(), funding.amountCentavos(), "a funding");
        }
        agreement.judgeLegs(finalClaims);
        return agreement.judgeBalances(books, moving);
    }

    /** In chunks of one ledger lookup each: a bench run's millions of payments must not all be in memory at once. */
    private void judgeLegs(Iterable<Claim> claims) {
        int chunkMax = traces.paymentsPerLookup();
        List<Claim> chunk = new ArrayList<>(chunkMax);
        for (Claim claim : claims) {
            if (!claim.isFinal()) {
                continue;
            }
            chunk.add(claim);
            if (chunk.size() == chunkMax) {
                judgeChunk(chunk);
                chunk.clear();
            }
        }
        judgeChunk(chunk);
    }

    private void judgeChunk(List<Claim> chunk) {
        if (chunk.isEmpty()) {
            return;
        }
        List<Id128> ids = new ArrayList<>(chunk.size() * LegId.LEGS_MAX * traces.phases);
        for (Claim claim : chunk) {
            for (SettlementPlan.Leg leg : SettlementPlan.of(claim.payment()).legs()) {
                ids.add(LegId.of(claim.payment().id(), LegId.Phase.POST, leg.number()));
                if (traces == Traces.ALL_PHASES) {
                    ids.add(LegId.of(claim.payment().id(), LegId.Phase.PENDING, leg.number()));
                    ids.add(LegId.of(claim.payment().id(), LegId.Phase.VOID, leg.number()));
                }
            }
        }
        legIdsLookedUp += ids.size();
        Map<Id128, Transfer> transfers = LedgerBooks.lookupTransfers(ledger, ids);
        for (Claim claim : chunk) {
            judgePayment(claim, transfers);
        }
    }

    private void judgePayment(Claim claim, Map<Id128, Transfer> transfers) {
        Payment payment = claim.payment();
        SettlementPlan plan = SettlementPlan.of(payment);
        int posted = count(plan, LegId.Phase.POST, transfers);
        checkPostAmounts(plan, transfers);
        if (claim.settled()) {
            settled++;
            if (posted == plan.legCount()) {
                settledComplete++;
            } else {
                violations.add("payment " + payment.id() + " is SETTLED in " + source + " but " + posted + " of "
                        + plan.legCount() + " post legs are in the ledger");
            }
            plan.legs()
                    .forEach(leg ->
                            move(leg.debit(), leg.credit(), payment.amountCentavos(), "payment " + payment.id()));
        } else {
            unsettled++;
            if (posted == 0) {
                unsettledClean++;
            } else {
                violations.add("payment " + payment.id() + " is " + claim.status() + " in " + source + " but " + posted
                        + " of " + plan.legCount() + " post legs are in the ledger");
            }
        }
        if (traces == Traces.ALL_PHASES) {
            checkTraces(claim, plan, transfers);
        }
    }

    private void checkPostAmounts(SettlementPlan plan, Map<Id128, Transfer> transfers) {
        Payment payment = plan.payment();
        for (SettlementPlan.Leg leg : plan.legs()) {
            Transfer post = transfers.get(LegId.of(payment.id(), LegId.Phase.POST, leg.number()));
            Id128 pendingId = LegId.of(payment.id(), LegId.Phase.PENDING, leg.number());
            if (post != null
                    && (post.amount() != payment.amountCentavos()
                            || !post.pendingId().equals(pendingId))) {
                violations.add("payment " + payment.id() + " leg " + leg.number() + ": posted " + post.amount()
                        + " of pending " + post.pendingId() + ", " + source + " says " + payment.amountCentavos()
                        + " of " + pendingId);
            }
        }
    }

    private void checkTraces(Claim claim, SettlementPlan plan, Map<Id128, Transfer> transfers) {
        int voided = count(plan, LegId.Phase.VOID, transfers);
        int reserved = count(plan, LegId.Phase.PENDING, transfers);
        String payment = claim.outcome() + " " + plan.payment().id();
        // Only the receiving bank's refusal voids a reserved chain; every other rejection is the ledger's, at
        // reservation.
        boolean refusedAtReservation =
                claim.outcome().startsWith("REJECTED(") && !"REJECTED(RECEIVING_BANK_REFUSED)".equals(claim.outcome());
        if (claim.settled() && voided != 0) {
            violations.add(payment + ": " + voided + " legs voided");
        }
        if ("REJECTED(RECEIVING_BANK_REFUSED)".equals(claim.outcome()) && voided != plan.legCount()) {
            violations.add(payment + ": " + voided + " of " + plan.legCount() + " legs voided, not every one");
        }
        if (refusedAtReservation && reserved != 0) {
            violations.add(payment + " reserved " + reserved + " legs, though the ledger refused it");
        }
        if (!refusedAtReservation && reserved != plan.legCount()) {
            violations.add(payment + ": " + reserved + " of " + plan.legCount() + " legs were reserved");
        }
    }

    private static int count(SettlementPlan plan, LegId.Phase phase, Map<Id128, Transfer> transfers) {
        int present = 0;
        for (SettlementPlan.Leg leg : plan.legs()) {
            present += transfers.containsKey(LegId.of(plan.payment().id(), phase, leg.number())) ? 1 : 0;
        }
        return present;
    }

    private void move(Id128 debit, Id128 credit, long amount, String what) {
        expected(debit, what)[0] += amount;
        expected(credit, what)[1] += amount;
    }

    private long[] expected(Id128 account, String what) {
        long[] debitsCredits = expectedDebitsCredits.get(account);
        if (debitsCredits == null) {
            violations.add(what + " moves money on " + PixBooks.describe(account) + " " + account
                    + ", which is not among the accounts checked");
            debitsCredits = new long[2];
            expectedDebitsCredits.put(account, debitsCredits);
        }
        return debitsCredits;
    }

    private Finding judgeBalances(LedgerBooks books, Set<Id128> moving) {
        int checked = 0;
        int mismatches = 0;
        int inFlight = 0;
        for (Map.Entry<Id128, long[]> expected : expectedDebitsCredits.entrySet()) {
            Account account = books.found().get(expected.getKey());
            if (account == null) {
                continue; // the zero-sum finding reports a missing account
            }
            if (moving.contains(account.id())) {
                inFlight++;
                continue;
            }
            checked++;
            long[] debitsCredits = expected.getValue();
            if (account.debitsPosted() != debitsCredits[0] || account.creditsPosted() != debitsCredits[1]) {
                mismatches++;
                long actual = account.creditsPosted() - account.debitsPosted();
                long wanted = debitsCredits[1] - debitsCredits[0];
                violations.add(PixBooks.describe(account.id()) + " " + account.id() + ": ledger balance " + actual
                        + " ≠ funding + settled payments " + wanted + " (difference " + (actual - wanted)
                        + "; posted debits "
                        + account.debitsPosted() + " vs " + debitsCredits[0] + ", credits " + account.creditsPosted()
                        + " vs " + debitsCredits[1] + ")");
            }
        }
        String summary = String.format(
                "%d of %d SETTLED have every post leg, %d of %d REJECTED/EXPIRED have none "
                        + "(%d leg ids looked up in batches of ≤ %d); %d of %d account balances = funding + Σreceived − Σsent%s",
                settledComplete,
                settled,
                unsettledClean,
                unsettled,
                legIdsLookedUp,
                Ledger.BATCH_SIZE_MAX,
                checked - mismatches,
                checked,
                moving.isEmpty() ? "" : " (" + inFlight + " more moved while read: in flight, not judged)");
        return violations.finding("read model = ledger", summary);
    }
}
