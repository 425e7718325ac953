package io.pagora.payments.api.domain;

import io.pagora.ledger.port.Account;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.AccountKind;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.util.Optional;

/**
 * The checks a well-formed payment must pass before it is accepted. Split in two so a batch can run
 * every check that needs no I/O first, then look all remaining accounts up in one ledger request.
 */
public final class PaymentRules {

    private final long amountMaxCentavos;

    public PaymentRules(long amountMaxCentavos) {
        Check.that(amountMaxCentavos > 0, "amount max must be positive: %d", amountMaxCentavos);
        this.amountMaxCentavos = amountMaxCentavos;
    }

    public long amountMaxCentavos() {
        return amountMaxCentavos;
    }

    /** Everything that can be decided from the request alone. */
    public Optional<Refusal> checkRequest(PaymentRequest request) {
        if (request.amountCentavos() <= 0) {
            return Optional.of(Refusal.ofField(RefusalReason.INVALID_AMOUNT, "amountCentavos",
                    "amountCentavos must be a positive integer, got " + request.amountCentavos()));
        }
        if (request.amountCentavos() > amountMaxCentavos) {
            return Optional.of(Refusal.ofField(RefusalReason.AMOUNT_ABOVE_LIMIT, "amountCentavos",
                    "amountCentavos must be at most " + amountMaxCentavos + ", got " + request.amountCentavos()));
        }
        if (request.payer().equals(request.payee())) {
            return Optional.of(Refusal.ofField(RefusalReason.SAME_PAYER_AND_PAYEE, "payeeAccountId",
                    "payer and payee are the same account " + request.payer()));
        }
        // Account ids encode their kind: no lookup is needed to refuse a bank or central-bank account.
        if (!ChartOfAccounts.isCustomer(request.payer())) {
            return Optional.of(notCustomer("payerAccountId", request.payer()));
        }
        if (!ChartOfAccounts.isCustomer(request.payee())) {
            return Optional.of(notCustomer("payeeAccountId", request.payee()));
        }
        return Optional.empty();
    }

    /** The ledger's view: both accounts exist and are customer accounts in BRL. */
    public Optional<Refusal> checkAccounts(PaymentRequest request, AccountStatus payer, AccountStatus payee) {
        if (payer == AccountStatus.MISSING) {
            return Optional.of(unknownPayer(request));
        }
        if (payee == AccountStatus.MISSING) {
            return Optional.of(Refusal.ofField(RefusalReason.UNKNOWN_ACCOUNT, "payeeAccountId",
                    "payee account " + request.payee() + " does not exist"));
        }
        if (payer != AccountStatus.CUSTOMER) {
            return Optional.of(notCustomer("payerAccountId", request.payer()));
        }
        if (payee != AccountStatus.CUSTOMER) {
            return Optional.of(notCustomer("payeeAccountId", request.payee()));
        }
        return Optional.empty();
    }

    /**
     * The answer for a payer account that does not exist; also the answer for a payer account of another bank
     * than the caller's, so that a bank cannot tell another bank's customers from ids nobody holds.
     */
    public static Refusal unknownPayer(PaymentRequest request) {
        return Refusal.ofField(RefusalReason.UNKNOWN_ACCOUNT, "payerAccountId",
                "payer account " + request.payer() + " does not exist");
    }

    /** What the ledger says about an account id. */
    public enum AccountStatus {
        /** A customer account on the BRL ledger: may pay and be paid. */
        CUSTOMER,
        /** Exists, but is not a BRL customer account. */
        OTHER,
        MISSING;

        public static AccountStatus of(Account account) {
            if (account == null) {
                return MISSING;
            }
            return isCustomerInBrl(account) ? CUSTOMER : OTHER;
        }
    }

    public static boolean isCustomerInBrl(Account account) {
        return account.code() == AccountKind.CUSTOMER.code && account.ledger() == ChartOfAccounts.LEDGER_BRL;
    }

    private static Refusal notCustomer(String field, Id128 account) {
        return Refusal.ofField(RefusalReason.NOT_A_CUSTOMER_ACCOUNT, field,
                field + " " + account + " is not a customer account (payments move money between customers)");
    }
}
