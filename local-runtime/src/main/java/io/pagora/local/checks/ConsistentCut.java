package io.pagora.local.checks;

import io.pagora.kernel.Check;
import io.pagora.ledger.port.Account;
import io.pagora.settlement.domain.AccountKind;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.SettlementPlan;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Where a read of the ledger's accounts stands in the ledger's own history, so that {@code verify} judges every
 * balance, the banks' reserve and transit accounts too, while payments flow.
 *
 * <p>The cut is a ledger transfer timestamp. A payment settles by posting its legs in one linked chain, which the
 * ledger applies as one unit, so a read of the accounts (one ledger request) holds, of the payments the read model
 * says SETTLED, those posted up to some timestamp and none after (TigerBeetle applies requests one at a time in
 * timestamp order). Which timestamp follows from a sum the fundings do not touch: the posted debits of every
 * customer and reserve plus the posted credits of every transit (a funding credits a customer or a reserve, debits
 * a transit or the central bank; only payments' legs move these). Every posted leg adds its amount there once per
 * such side, so each payment adds a positive amount: the sums over the read model's settled payments taken in
 * posting order rise strictly, and at most one prefix equals the accounts' sum. That prefix's last posting is the
 * cut: every balance is then judged against the fundings and exactly the payments posted up to it.
 *
 * <p>No prefix matches when the ledger and the read model disagree, but also when the read includes a settlement the
 * read model has not projected yet (a lag longer than verify's pause): verify then reads again (a few times), and if no
 * read has an exact cut it judges at the closest one, where the disagreeing accounts show with their differences. Both
 * ledgers stamp in commit order (the PostgreSQL one through its clock row, V3__ledger_clock.sql), so a commit never
 * lands below a cut already read.
 */
public final class ConsistentCut {

    /** A payment the read model says SETTLED whose every post leg the ledger holds, the last posted at {@code postedAt}. */
    public record Settled(UUID paymentId, Payment payment, long postedAt) {}

    /**
     * @param timestamp the ledger timestamp of the last posting the read holds (0: it holds none)
     * @param judged settled payments posted up to the cut
     * @param settledAfter settled payments posted after it: not in the read, judged by the next verify
     * @param unexplained the read's payment-only sum minus the settled payments' up to the cut: 0 for an exact cut
     */
    public record Cut(long timestamp, int judged, Set<UUID> settledAfter, long unexplained) {

        public boolean exact() {
            return unexplained == 0;
        }
    }

    private ConsistentCut() {}

    /**
     * The cut of {@code firstRead} among {@code settled}: the prefix whose sum equals the read's ({@link Cut#exact()}),
     * else the longest prefix whose sum stays below it.
     */
    public static Cut find(Collection<Account> firstRead, List<Settled> settled) {
        long target = paymentOnlySum(firstRead);
        List<Settled> ordered = new ArrayList<>(settled);
        ordered.sort(Comparator.comparingLong(Settled::postedAt));
        long sum = 0;
        int count = 0;
        while (count < ordered.size()) {
            long next = Math.addExact(sum, contribution(ordered.get(count).payment()));
            if (next > target) {
                break;
            }
            sum = next;
            count++;
        }
        Set<UUID> after = new HashSet<>();
        for (Settled payment : ordered.subList(count, ordered.size())) {
            after.add(payment.paymentId());
        }
        return new Cut(count == 0 ? 0 : ordered.get(count - 1).postedAt(), count, after, target - sum);
    }

    /** Σ posted debits of customers and reserves + Σ posted credits of transits: what only payments move. */
    static long paymentOnlySum(Collection<Account> accounts) {
        long sum = 0;
        for (Account account : accounts) {
            AccountKind kind = ChartOfAccounts.kindOf(account.id()).orElse(null);
            if (kind == AccountKind.CUSTOMER || kind == AccountKind.RESERVE) {
                sum = Math.addExact(sum, account.debitsPosted());
            } else if (kind == AccountKind.TRANSIT) {
                sum = Math.addExact(sum, account.creditsPosted());
            }
        }
        return sum;
    }

    /** What one settled payment adds to {@link #paymentOnlySum}: positive for every payment. */
    static long contribution(Payment payment) {
        long sum = 0;
        for (SettlementPlan.Leg leg : SettlementPlan.of(payment).legs()) {
            AccountKind debit = ChartOfAccounts.kindOf(leg.debit()).orElse(null);
            AccountKind credit = ChartOfAccounts.kindOf(leg.credit()).orElse(null);
            if (debit == AccountKind.CUSTOMER || debit == AccountKind.RESERVE) {
                sum = Math.addExact(sum, payment.amountCentavos());
            }
            if (credit == AccountKind.TRANSIT) {
                sum = Math.addExact(sum, payment.amountCentavos());
            }
        }
        Check.that(
                sum > 0, "payment %s adds nothing to the payment-only sum: the cut could not be found", payment.id());
        return sum;
    }
}
