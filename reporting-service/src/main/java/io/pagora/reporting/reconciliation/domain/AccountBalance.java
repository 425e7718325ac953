package io.pagora.reporting.reconciliation.domain;

import io.pagora.ledger.port.Account;
import io.pagora.settlement.domain.AccountKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * An account's posted balance in one ledger read (the <em>cut</em>) against the read model's settled payments.
 *
 * <p>Fundings (central bank → reserve, transit → customer) never pass through Kafka, so the read model
 * cannot know them; but they only ever touch one side of each account, and payments touch both. So each
 * account has a <em>payment side</em> that only payments move, which must equal the read model exactly,
 * and a <em>funded side</em> that must hold at least the read model's payments:
 * <pre>
 *   customer, reserve:  debits_posted  = outgoing        credits_posted ≥ incoming   (fundings credit them)
 *   transit:            credits_posted = outgoing (leg 1) debits_posted ≥ incoming (leg 3; customer fundings debit it)
 * </pre>
 * The central bank is moved by fundings only and is not judged here (the zero-sum check covers it); nor are the
 * returns' memorandum accounts (a payment's returnable amount, returns control), which hold no participant's money and
 * which only returns' own legs move.
 *
 * <p>The read model is read after the ledger, once it holds every payment the ledger read could hold (the caller
 * proves that: {@code PaymentPipeline}), so it holds those and, while payments flow, some posted after the cut: the
 * {@code window}, every settled payment it holds that may be one of those, with its ledger post timestamp. The
 * ledger applies a payment's legs as one unit in timestamp order, so the payments posted after the cut are the
 * newest of the window: the payment side must equal the read model's outgoing total less the newest window
 * payments' share, for one count of newest payments. That is the consistent cut, per account, found exactly.
 */
public final class AccountBalance {

    private AccountBalance() {}

    /**
     * A settled payment the read model holds that the ledger may have posted after the cut: when the ledger posted
     * it, and what it moved on this account's payment side and funded side.
     */
    public record Posted(long postedAt, long paymentSideCentavos, long fundedSideCentavos) {}

    /**
     * @param atCut the account in the ledger read
     * @param readModel the read model's settled totals, read once it holds every payment posted by the cut
     * @param window the read model's payments of this account that may have been posted after the cut
     */
    public static Verdict judge(AccountKind kind, Account atCut, PaymentFlows readModel, List<Posted> window) {
        return switch (kind) {
            case CUSTOMER, RESERVE ->
                compare(atCut.debitsPosted(), atCut.creditsPosted(), readModel, window, "debits", "credits");
            case TRANSIT ->
                compare(atCut.creditsPosted(), atCut.debitsPosted(), readModel, window, "credits", "debits");
            // Fraud holds are pending only: the read model's settled totals never name them.
            case CENTRAL_BANK, RETURNABLE, RETURNS_CONTROL, FRAUD_HOLDS -> Verdict.AGREES;
        };
    }

    private static Verdict compare(
            long paymentSide,
            long fundedSide,
            PaymentFlows readModel,
            List<Posted> window,
            String paymentSideName,
            String fundedSideName) {
        long ahead = readModel.outgoingCentavos() - paymentSide;
        if (ahead < 0 || !newestExplain(window, ahead)) {
            return new Verdict.Disagrees(
                    MismatchKind.BALANCE,
                    paymentSideName + "_posted " + paymentSide
                            + " ≠ the read model's settled outgoing payments " + readModel.outgoingCentavos()
                            + " (difference "
                            + (paymentSide - readModel.outgoingCentavos()) + "), and no count of the " + window.size()
                            + " payments it may hold posted after the ledger read explains it");
        }
        long windowIncoming =
                window.stream().mapToLong(Posted::fundedSideCentavos).sum();
        if (fundedSide < readModel.incomingCentavos() - windowIncoming) {
            return new Verdict.Disagrees(
                    MismatchKind.BALANCE,
                    fundedSideName + "_posted " + fundedSide
                            + " < the read model's settled incoming payments " + readModel.incomingCentavos()
                            + " less the " + windowIncoming + " it may hold posted after the ledger read");
        }
        return Verdict.AGREES;
    }

    /** Whether the payment-side shares of the newest window payments add up to {@code ahead}, for some count of them. */
    private static boolean newestExplain(List<Posted> window, long ahead) {
        List<Posted> newestFirst = new ArrayList<>(window);
        newestFirst.sort(Comparator.comparingLong(Posted::postedAt).reversed());
        long sum = 0;
        for (Posted posted : newestFirst) {
            if (sum == ahead) {
                return true;
            }
            sum += posted.paymentSideCentavos();
            if (sum > ahead) {
                return false;
            }
        }
        return sum == ahead;
    }
}
