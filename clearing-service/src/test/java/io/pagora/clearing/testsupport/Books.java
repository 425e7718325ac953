package io.pagora.clearing.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.application.ClearingRequest;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRequested;
import io.pagora.ledger.domain.Account;
import io.pagora.ledger.domain.AccountFlags;
import io.pagora.kernel.Id128;
import io.pagora.ledger.domain.Ledger;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.SettlementPlan;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The money invariants every test that moves money ends with, checked against the real ledger and
 * the outcomes clearing actually published:
 *
 * <ol>
 *   <li>double entry over the world's closed set of accounts: Σ debits = Σ credits, posted and pending;
 *   <li>no limited account (customers, reserves) below zero, pending included;
 *   <li>nothing left pending: every reservation was posted, voided or expired;
 *   <li>each payment has exactly one final state among the published outcomes (the same outcome may be
 *       published more than once after a redelivery, two different ones never);
 *   <li>every account's posted debits and credits equal its funding plus the legs of exactly the
 *       payments published as settled — so a settled payment moved money once, and any other moved none.
 * </ol>
 */
public final class Books {

    /** One posted movement of money: debit → credit. */
    public record Movement(Id128 debit, Id128 credit, long amountCentavos) {}

    private Books() {}

    /** Groups outcomes by payment id, keeping only the given payments. */
    public static Map<String, List<PaymentOutcome>> byPayment(Collection<PaymentOutcome> outcomes) {
        Map<String, List<PaymentOutcome>> grouped = new LinkedHashMap<>();
        for (PaymentOutcome outcome : outcomes) {
            grouped.computeIfAbsent(outcome.paymentId(), id -> new ArrayList<>()).add(outcome);
        }
        return grouped;
    }

    /** The single final status of each payment; fails if a payment has none or two different ones. */
    public static Map<String, String> finalStates(List<PaymentRequested> payments, Collection<PaymentOutcome> outcomes) {
        Map<String, List<PaymentOutcome>> grouped = byPayment(outcomes);
        Map<String, String> states = new LinkedHashMap<>();
        for (PaymentRequested payment : payments) {
            List<PaymentOutcome> mine = grouped.getOrDefault(payment.paymentId(), List.of());
            assertThat(mine).as("outcomes of payment %s", payment.paymentId()).isNotEmpty();
            Set<String> statuses = mine.stream().map(PaymentOutcome::status).collect(Collectors.toCollection(TreeSet::new));
            assertThat(statuses).as("exactly one final state for payment %s: %s", payment.paymentId(), mine).hasSize(1);
            for (PaymentOutcome outcome : mine) {
                assertThat(List.of(outcome.payerAccountId(), outcome.payeeAccountId(), outcome.amountCentavos()))
                        .as("outcome describes its payment")
                        .containsExactly(payment.payerAccountId(), payment.payeeAccountId(), payment.amountCentavos());
            }
            states.put(payment.paymentId(), statuses.iterator().next());
        }
        return states;
    }

    /**
     * Checks every invariant (see the class comment) for the world's accounts, given all payments the
     * test requested (valid ones; dead-lettered ones never reach the ledger) and every outcome published.
     *
     * @return the final status of each payment
     */
    public static Map<String, String> check(PixWorld world, List<PaymentRequested> payments,
            Collection<PaymentOutcome> outcomes) {
        Map<String, String> states = finalStates(payments, outcomes);
        Ledger ledger = world.ledger();
        List<Id128> ids = new ArrayList<>(world.accounts());
        List<Account> accounts = ledger.lookupAccounts(ids);
        assertThat(accounts).as("every account of the world exists").hasSize(ids.size());

        BigInteger[] sums = {BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO};
        for (Account account : accounts) {
            sums[0] = sums[0].add(BigInteger.valueOf(account.debitsPosted()));
            sums[1] = sums[1].add(BigInteger.valueOf(account.creditsPosted()));
            sums[2] = sums[2].add(BigInteger.valueOf(account.debitsPending()));
            sums[3] = sums[3].add(BigInteger.valueOf(account.creditsPending()));
            if (account.hasFlag(AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS)) {
                assertThat(account.debitsPosted() + account.debitsPending())
                        .as("limited account %s is not below zero", account.id())
                        .isLessThanOrEqualTo(account.creditsPosted());
            }
            assertThat(account.debitsPending() + account.creditsPending())
                    .as("nothing left pending on %s", account.id()).isZero();
        }
        assertThat(sums[0]).as("Σ debits posted = Σ credits posted").isEqualTo(sums[1]);
        assertThat(sums[2]).as("Σ debits pending = Σ credits pending").isEqualTo(sums[3]);

        // Expected posted balances: funding plus the legs of exactly the settled payments.
        Map<Id128, long[]> expected = new HashMap<>();
        for (Id128 id : ids) {
            expected.put(id, new long[2]);
        }
        List<Movement> movements = new ArrayList<>(world.funding());
        for (PaymentRequested payment : payments) {
            if ("SETTLED".equals(states.get(payment.paymentId()))) {
                Payment domain = ClearingRequest.toPayment(payment);
                for (SettlementPlan.Leg leg : SettlementPlan.of(domain).legs()) {
                    movements.add(new Movement(leg.debit(), leg.credit(), domain.amountCentavos()));
                }
            }
        }
        for (Movement movement : movements) {
            expected.get(movement.debit())[0] += movement.amountCentavos();
            expected.get(movement.credit())[1] += movement.amountCentavos();
        }
        for (Account account : accounts) {
            long[] debitsCredits = expected.get(account.id());
            assertThat(new long[] {account.debitsPosted(), account.creditsPosted()})
                    .as("posted debits and credits of %s = funding + settled payments", account.id())
                    .containsExactly(debitsCredits);
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
