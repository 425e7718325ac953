package io.pagora.payments.api.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.ledger.domain.Account;
import io.pagora.ledger.domain.AccountFlags;
import io.pagora.kernel.Id128;
import io.pagora.ledger.domain.Ledger;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The money invariants, checked over a closed set of ledger accounts (every account a test class
 * created, among which alone money moved — each class has its own database):
 * <ol>
 *   <li>every tracked account exists;
 *   <li>double entry: Σ debits_posted = Σ credits_posted and Σ debits_pending = Σ credits_pending;
 *   <li>no account with debits_must_not_exceed_credits has debits_posted + debits_pending &gt; credits_posted.
 * </ol>
 * Sums are exact ({@link BigInteger}).
 */
public final class MoneyInvariants {

    private MoneyInvariants() {}

    public static List<Account> check(Ledger ledger, Collection<Id128> accountIds) {
        List<Id128> ids = new ArrayList<>(new LinkedHashSet<>(accountIds));
        List<Account> accounts = ledger.lookupAccounts(ids);
        assertThat(accounts.stream().map(Account::id).toList()).as("every tracked account exists").containsExactlyElementsOf(ids);
        BigInteger debitsPosted = BigInteger.ZERO;
        BigInteger creditsPosted = BigInteger.ZERO;
        BigInteger debitsPending = BigInteger.ZERO;
        BigInteger creditsPending = BigInteger.ZERO;
        for (Account account : accounts) {
            debitsPosted = debitsPosted.add(BigInteger.valueOf(account.debitsPosted()));
            creditsPosted = creditsPosted.add(BigInteger.valueOf(account.creditsPosted()));
            debitsPending = debitsPending.add(BigInteger.valueOf(account.debitsPending()));
            creditsPending = creditsPending.add(BigInteger.valueOf(account.creditsPending()));
            if (account.hasFlag(AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS)) {
                assertThat(BigInteger.valueOf(account.debitsPosted()).add(BigInteger.valueOf(account.debitsPending())))
                        .as("limited account %s never below zero", account)
                        .isLessThanOrEqualTo(BigInteger.valueOf(account.creditsPosted()));
            }
        }
        assertThat(debitsPosted).as("Σ debits_posted = Σ credits_posted").isEqualTo(creditsPosted);
        assertThat(debitsPending).as("Σ debits_pending = Σ credits_pending").isEqualTo(creditsPending);
        return accounts;
    }
}
