package io.pagora.clearing.testsupport;

import io.pagora.clearing.application.ClearingRequest;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.invariants.Finding;
import io.pagora.ledger.port.invariants.LedgerBooks;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.invariants.Claim;
import io.pagora.settlement.invariants.FinalStates;
import io.pagora.settlement.invariants.LedgerAgreement;
import io.pagora.settlement.invariants.PixBooks;
import io.pagora.testing.ledger.MoneyInvariants;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The money invariants every test that moves money ends with, checked by the one money invariant
 * checker against the real ledger and the outcomes clearing actually published:
 *
 * <ol>
 *   <li>double entry over the world's closed set of accounts: Σ debits = Σ credits, posted and pending;
 *   <li>no limited account (customers, reserves) below zero, pending included, and both carry the limit;
 *   <li>nothing left pending: every reservation was posted, voided or expired;
 *   <li>each payment has exactly one final state among the published outcomes (the same outcome may be
 *       published more than once after a redelivery, two different ones never), and every outcome
 *       describes its payment;
 *   <li>SETTLED ⇔ every post leg is in the ledger; every account's posted debits and credits equal its
 *       funding plus the legs of exactly the payments published as settled — so a settled payment moved
 *       money once, and any other moved none.
 * </ol>
 */
public final class Books {

    private static final String SOURCE = "the published outcomes";

    private Books() {}

    /** Groups outcomes by payment id. */
    public static Map<String, List<PaymentOutcome>> byPayment(Collection<PaymentOutcome> outcomes) {
        Map<String, List<PaymentOutcome>> grouped = new LinkedHashMap<>();
        for (PaymentOutcome outcome : outcomes) {
            grouped.computeIfAbsent(outcome.paymentId(), id -> new ArrayList<>())
                    .add(outcome);
        }
        return grouped;
    }

    /**
     * Checks every invariant (see the class comment) for the world's accounts, given all payments the
     * test requested (valid ones; dead-lettered ones never reach the ledger) and every outcome published.
     *
     * @return the final status of each payment
     */
    public static Map<String, String> check(
            PixWorld world, List<PaymentRequested> payments, Collection<PaymentOutcome> outcomes) {
        Map<PaymentId, Payment> accepted = new LinkedHashMap<>();
        for (PaymentRequested payment : payments) {
            accepted.put(PaymentId.parse(payment.paymentId()), ClearingRequest.toPayment(payment));
        }
        List<Claim> claims = new ArrayList<>();
        Map<PaymentId, Claim> finalClaims = new LinkedHashMap<>();
        for (PaymentOutcome outcome : outcomes) {
            PaymentId id = PaymentId.parse(outcome.paymentId());
            if (accepted.containsKey(id)) { // outcomes of other payments (e.g. an earlier test's) are not judged here
                Claim claim = new Claim(
                        new Payment(
                                id,
                                Id128.parse(outcome.payerAccountId()),
                                Id128.parse(outcome.payeeAccountId()),
                                outcome.amountCentavos()),
                        outcome.status(),
                        null);
                claims.add(claim);
                finalClaims.putIfAbsent(id, claim);
            }
        }
        Finding finalStates = FinalStates.check(SOURCE, accepted, claims, false);
        MoneyInvariants.assertHolds(finalStates);
        LedgerBooks books = PixBooks.read(world.ledger(), world.accounts());
        MoneyInvariants.assertHolds(
                books.zeroSum(),
                books.limits(PixBooks.MUST_BE_DEBIT_LIMITED),
                books.nothingPending(),
                LedgerAgreement.check(
                        world.ledger(),
                        SOURCE,
                        books,
                        world.funding(),
                        finalClaims.values(),
                        Set.of(),
                        LedgerAgreement.Traces.POSTS_ONLY));
        Map<String, String> states = new LinkedHashMap<>();
        for (PaymentRequested payment : payments) {
            states.put(
                    payment.paymentId(),
                    finalClaims.get(PaymentId.parse(payment.paymentId())).status());
        }
        return states;
    }

    /** The customer's available balance now. */
    public static long balance(Ledger ledger, Id128 account) {
        return ledger.lookupAccounts(List.of(account)).getFirst().creditBalanceAvailable();
    }

    /** Counts statuses, e.g. {REJECTED=10, SETTLED=90}. */
    public static Map<String, Long> census(Map<String, String> states) {
        return states.values().stream()
                .collect(Collectors.groupingBy(status -> status, TreeMap::new, Collectors.counting()));
    }
}
