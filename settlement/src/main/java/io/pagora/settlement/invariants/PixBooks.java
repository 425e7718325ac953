package io.pagora.settlement.invariants;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.invariants.LedgerBooks;
import io.pagora.settlement.domain.AccountKind;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.util.Collection;
import java.util.function.Predicate;

/** The ledger's books read with the PIX chart of accounts: accounts named by role, customers and reserves limited. */
public final class PixBooks {

    /**
     * Customers and reserves must never go below zero, so they must carry debits_must_not_exceed_credits; and so must a
     * payment's returnable account (its returns never exceed its amount).
     */
    public static final Predicate<Id128> MUST_BE_DEBIT_LIMITED = account -> {
        AccountKind kind = ChartOfAccounts.kindOf(account).orElse(null);
        return kind == AccountKind.CUSTOMER || kind == AccountKind.RESERVE || kind == AccountKind.RETURNABLE;
    };

    private PixBooks() {}

    /** Reads {@code accountIds} (in bounded batches), naming them by their role in messages. */
    public static LedgerBooks read(Ledger ledger, Collection<Id128> accountIds) {
        return LedgerBooks.read(ledger, accountIds, PixBooks::describe);
    }

    /** An account's role in the PIX chart of accounts, for messages ("reserve of bank 1"). */
    public static String describe(Id128 account) {
        AccountKind kind = ChartOfAccounts.kindOf(account).orElse(null);
        if (kind == null) {
            return "account";
        }
        return switch (kind) {
            case CENTRAL_BANK -> "central bank";
            case RESERVE ->
                "reserve of bank "
                        + ChartOfAccounts.bankOf(account).map(Object::toString).orElse("?");
            case TRANSIT ->
                "transit of bank "
                        + ChartOfAccounts.bankOf(account).map(Object::toString).orElse("?");
            case CUSTOMER -> "customer";
            case RETURNABLE ->
                "returnable amount of payment "
                        + ChartOfAccounts.paymentOfReturnable(account)
                                .map(Object::toString)
                                .orElse("?");
            case RETURNS_CONTROL -> "returns control";
            case FRAUD_HOLDS ->
                "fraud holds of bank "
                        + ChartOfAccounts.bankOf(account).map(Object::toString).orElse("?");
        };
    }
}
