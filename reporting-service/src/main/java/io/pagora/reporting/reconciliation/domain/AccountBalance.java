package io.pagora.reporting.reconciliation.domain;

import io.pagora.ledger.domain.Account;
import io.pagora.settlement.domain.AccountKind;

/**
 * An account's posted balance in the ledger against the read model's settled payments.
 *
 * <p>Fundings (central bank → reserve, transit → customer) never pass through Kafka, so the read model
 * cannot know them; but they only ever touch one side of each account, and payments touch both. So each
 * account has a <em>payment side</em> that only payments move, which must equal the read model exactly,
 * and a <em>funded side</em> that must hold at least the read model's payments:
 * <pre>
 *   customer, reserve:  debits_posted  = outgoing        credits_posted ≥ incoming   (fundings credit them)
 *   transit:            credits_posted = outgoing (leg 1) debits_posted ≥ incoming (leg 3; customer fundings debit it)
 * </pre>
 * The central bank is moved by fundings only and is not judged here (the zero-sum check covers it).
 */
public final class AccountBalance {

    private AccountBalance() {}

    /**
     * @param before the account read from the ledger before the read model was read
     * @param after the same account read again after it: an account that moved in between is deferred
     */
    public static Verdict judge(AccountKind kind, Account before, Account after, PaymentFlows readModel) {
        if (before.debitsPosted() != after.debitsPosted() || before.creditsPosted() != after.creditsPosted()) {
            return new Verdict.Deferred("moved while it was read");
        }
        return switch (kind) {
            case CUSTOMER, RESERVE -> compare(after.debitsPosted(), after.creditsPosted(), readModel, "debits", "credits");
            case TRANSIT -> compare(after.creditsPosted(), after.debitsPosted(), readModel, "credits", "debits");
            case CENTRAL_BANK -> Verdict.AGREES;
        };
    }

    private static Verdict compare(long paymentSide, long fundedSide, PaymentFlows readModel, String paymentSideName,
            String fundedSideName) {
        if (paymentSide != readModel.outgoingCentavos()) {
            return new Verdict.Disagrees(MismatchKind.BALANCE, paymentSideName + "_posted " + paymentSide
                    + " ≠ the read model's settled outgoing payments " + readModel.outgoingCentavos() + " (difference "
                    + (paymentSide - readModel.outgoingCentavos()) + ")");
        }
        if (fundedSide < readModel.incomingCentavos()) {
            return new Verdict.Disagrees(MismatchKind.BALANCE, fundedSideName + "_posted " + fundedSide
                    + " < the read model's settled incoming payments " + readModel.incomingCentavos());
        }
        return Verdict.AGREES;
    }
}
