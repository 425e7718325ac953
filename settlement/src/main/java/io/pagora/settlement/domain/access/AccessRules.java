package io.pagora.settlement.domain.access;

import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.util.Optional;

/**
 * Who may touch what, as pure functions of the caller and the object's id (account ids name their bank,
 * {@link ChartOfAccounts}): each answers the refusal, or empty when the caller may. Deny by default:
 * an id outside the chart of accounts belongs to nobody, so only the rules that grant the operator
 * unowned accounts let anyone at it.
 */
public final class AccessRules {

    private AccessRules() {}

    /** Functions of the switch itself: registering banks, funding reserves, statistics. */
    public static Optional<AccessRefusal> operatorOnly(Caller caller) {
        return caller instanceof Caller.Operator ? Optional.empty() : Optional.of(AccessRefusal.OPERATOR_ONLY);
    }

    /**
     * Functions that answer a bank its own records only (listing its payments): any bank, never the operator,
     * who is party to no payment.
     */
    public static Optional<AccessRefusal> bankOnly(Caller caller) {
        return caller instanceof Caller.Bank ? Optional.empty() : Optional.of(AccessRefusal.BANK_ONLY);
    }

    /** Acting for {@code bank} (opening its customers' accounts): that bank only. */
    public static Optional<AccessRefusal> bankItself(Caller caller, BankId bank) {
        return caller instanceof Caller.Bank(BankId own) && own.equals(bank)
                ? Optional.empty()
                : Optional.of(AccessRefusal.FOREIGN_BANK);
    }

    /** A bank's records that the operator supervises (positions): that bank or the operator. */
    public static Optional<AccessRefusal> bankOrOperator(Caller caller, BankId bank) {
        return caller instanceof Caller.Operator ? Optional.empty() : bankItself(caller, bank);
    }

    /**
     * Moving money out of, funding, or reading an account: the account's bank only. The central bank's
     * account (no bank in the scheme) is the operator's: it mints the reserves.
     */
    public static Optional<AccessRefusal> accountHolder(Caller caller, Id128 account) {
        Optional<BankId> bank = ChartOfAccounts.bankOf(account);
        boolean allowed = switch (caller) {
            case Caller.Bank(BankId own) -> bank.isPresent() && bank.get().equals(own);
            case Caller.Operator operator -> account.equals(ChartOfAccounts.centralBank());
        };
        return allowed ? Optional.empty() : Optional.of(AccessRefusal.FOREIGN_ACCOUNT);
    }

    /** Reading a payment: the payer's bank or the payee's bank, nobody else (not even the operator). */
    public static Optional<AccessRefusal> partyToPayment(Caller caller, Id128 payer, Id128 payee) {
        boolean party = caller instanceof Caller.Bank(BankId own) && (ownedBy(payer, own) || ownedBy(payee, own));
        return party ? Optional.empty() : Optional.of(AccessRefusal.FOREIGN_PAYMENT);
    }

    private static boolean ownedBy(Id128 account, BankId bank) {
        return ChartOfAccounts.bankOf(account).map(bank::equals).orElse(false);
    }
}
