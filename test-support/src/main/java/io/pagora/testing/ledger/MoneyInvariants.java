package io.pagora.testing.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.invariants.Finding;
import io.pagora.ledger.port.invariants.LedgerBooks;
import java.util.Collection;
import java.util.List;

/**
 * The tests' one-line assertions over the money invariant checker ({@link LedgerBooks} on the ledger port,
 * and the settlement module's {@code io.pagora.settlement.invariants} on top): the checker returns
 * {@link Finding}s, these fail the test with every violation's evidence.
 *
 * <p>{@link #check} asserts, over a closed set of accounts (the accounts one test created, among which
 * alone it moved money): every account exists, answered in request order; Σ debits = Σ credits per
 * ledger, posted and pending; no account beyond its {@code debits_must_not_exceed_credits} or
 * {@code credits_must_not_exceed_debits} limit, pending amounts included.
 */
public final class MoneyInvariants {

    private static final int VIOLATIONS_LISTED_MAX = 20;

    private MoneyInvariants() {}

    /** Fails with the evidence unless every finding holds; {@code context} (e.g. a seed) heads the message. */
    public static void assertHolds(String context, List<Finding> findings) {
        for (Finding finding : findings) {
            assertThat(finding.violations())
                    .as("%s%s", context.isEmpty() ? "" : "[" + context + "] ", finding.describe(VIOLATIONS_LISTED_MAX))
                    .isEmpty();
        }
    }

    public static void assertHolds(Finding... findings) {
        assertHolds("", List.of(findings));
    }

    /** Checks the invariants over {@code accountIds}; {@code context} (e.g. a seed) goes into every failure message. */
    public static List<Account> check(Ledger ledger, Collection<Id128> accountIds, String context) {
        LedgerBooks books = LedgerBooks.read(ledger, accountIds);
        assertHolds(where(ledger, context), List.of(books.zeroSum(), books.limits()));
        return books.accounts();
    }

    public static List<Account> check(Ledger ledger, Collection<Id128> accountIds) {
        return check(ledger, accountIds, "");
    }

    /** Additionally: nothing is reserved any more (every pending transfer was posted, voided or expired). */
    public static void checkNothingPending(Ledger ledger, Collection<Id128> accountIds, String context) {
        LedgerBooks books = LedgerBooks.read(ledger, accountIds);
        assertHolds(where(ledger, context), List.of(books.zeroSum(), books.limits(), books.nothingPending()));
    }

    private static String where(Ledger ledger, String context) {
        return ledger.backendName() + (context.isEmpty() ? "" : ", " + context);
    }
}
