package io.pagora.testing.ledger;

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
import java.util.Map;
import java.util.TreeMap;

/**
 * The money invariants every ledger state must satisfy, checked over a closed set of accounts (the
 * accounts one test created, among which alone it moved money):
 *
 * <ol>
 *   <li>double entry, per ledger: Σ debits_posted = Σ credits_posted and Σ debits_pending = Σ credits_pending;
 *   <li>limits: no account with {@code debits_must_not_exceed_credits} has debits_posted + debits_pending
 *       &gt; credits_posted, and no account with {@code credits_must_not_exceed_debits} has
 *       credits_posted + credits_pending &gt; debits_posted;
 *   <li>every tracked account exists (money never vanishes with its account).
 * </ol>
 *
 * Sums are exact ({@link BigInteger}), so an overflowing backend cannot hide behind wrap-around.
 */
public final class MoneyInvariants {

    private MoneyInvariants() {}

    /** Checks the invariants over {@code accountIds}; {@code context} (e.g. a seed) goes into every failure message. */
    public static List<Account> check(Ledger ledger, Collection<Id128> accountIds, String context) {
        List<Id128> ids = new ArrayList<>(new LinkedHashSet<>(accountIds));
        List<Account> accounts = new ArrayList<>(ids.size());
        for (int from = 0; from < ids.size(); from += Ledger.BATCH_SIZE_MAX) {
            accounts.addAll(ledger.lookupAccounts(ids.subList(from, Math.min(ids.size(), from + Ledger.BATCH_SIZE_MAX))));
        }
        String where = "[" + ledger.backendName() + (context.isEmpty() ? "" : ", " + context) + "] ";
        assertThat(accounts.stream().map(Account::id).toList())
                .as(where + "every tracked account exists, in request order")
                .containsExactlyElementsOf(ids);

        Map<Integer, BigInteger[]> sums = new TreeMap<>();
        for (Account account : accounts) {
            BigInteger[] sum = sums.computeIfAbsent(account.ledger(),
                    ledgerNumber -> new BigInteger[] {BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO});
            sum[0] = sum[0].add(BigInteger.valueOf(account.debitsPosted()));
            sum[1] = sum[1].add(BigInteger.valueOf(account.creditsPosted()));
            sum[2] = sum[2].add(BigInteger.valueOf(account.debitsPending()));
            sum[3] = sum[3].add(BigInteger.valueOf(account.creditsPending()));

            BigInteger debitsPosted = BigInteger.valueOf(account.debitsPosted());
            BigInteger creditsPosted = BigInteger.valueOf(account.creditsPosted());
            if (account.hasFlag(AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS)) {
                assertThat(debitsPosted.add(BigInteger.valueOf(account.debitsPending())))
                        .as(where + "debits_posted + debits_pending <= credits_posted on limited account %s", account)
                        .isLessThanOrEqualTo(creditsPosted);
            }
            if (account.hasFlag(AccountFlags.CREDITS_MUST_NOT_EXCEED_DEBITS)) {
                assertThat(creditsPosted.add(BigInteger.valueOf(account.creditsPending())))
                        .as(where + "credits_posted + credits_pending <= debits_posted on limited account %s", account)
                        .isLessThanOrEqualTo(debitsPosted);
            }
        }
        sums.forEach((ledgerNumber, sum) -> {
            assertThat(sum[0]).as(where + "Σ debits_posted = Σ credits_posted on ledger %d", ledgerNumber).isEqualTo(sum[1]);
            assertThat(sum[2]).as(where + "Σ debits_pending = Σ credits_pending on ledger %d", ledgerNumber).isEqualTo(sum[3]);
        });
        return accounts;
    }

    public static List<Account> check(Ledger ledger, Collection<Id128> accountIds) {
        return check(ledger, accountIds, "");
    }

    /** Additionally: nothing is reserved any more (every pending transfer was posted, voided or expired). */
    public static void checkNothingPending(Ledger ledger, Collection<Id128> accountIds, String context) {
        for (Account account : check(ledger, accountIds, context)) {
            assertThat(account.debitsPending() == 0 && account.creditsPending() == 0)
                    .as("[%s, %s] no pending amounts left on %s", ledger.backendName(), context, account)
                    .isTrue();
        }
    }
}
