package io.pagora.settlement.domain;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.AccountFlags;
import io.pagora.ledger.port.NewAccount;
import java.util.List;
import java.util.Optional;

/**
 * The PIX chart of accounts on ledger 986 (BRL, amounts in centavos), and its account id scheme.
 *
 * <p>Account ids are structured so that any account id tells its kind and bank without a lookup:
 * the top byte of the high half is the {@link AccountKind} code, the low 32 bits of the high half are
 * the bank's ISPB, and the low half is the customer's account number (zero for bank accounts).
 * The clearing service can thus plan a payment's legs from the two customer ids alone.
 *
 * <p>Limits: customers and reserves have {@code debits_must_not_exceed_credits} (they hold credit
 * balances that may not go below zero, pending reservations included). The central bank (the issuer)
 * and the transit accounts are unlimited: transit legs flow both ways. Every account starts at zero;
 * reserves are funded from the central bank, customers from their bank's transit account.
 */
public final class ChartOfAccounts {

    /** ISO 4217 numeric code of BRL; one ledger per currency. */
    public static final int LEDGER_BRL = 986;

    private static final int KIND_SHIFT = 56;

    private ChartOfAccounts() {}

    public static Id128 centralBank() {
        return new Id128((long) AccountKind.CENTRAL_BANK.code << KIND_SHIFT, 0);
    }

    public static Id128 reserve(BankId bank) {
        return new Id128(((long) AccountKind.RESERVE.code << KIND_SHIFT) | bank.ispb(), 0);
    }

    public static Id128 transit(BankId bank) {
        return new Id128(((long) AccountKind.TRANSIT.code << KIND_SHIFT) | bank.ispb(), 0);
    }

    public static Id128 customer(BankId bank, long accountNumber) {
        if (accountNumber <= 0) {
            throw new IllegalArgumentException("a customer account number is positive: " + accountNumber);
        }
        return new Id128(((long) AccountKind.CUSTOMER.code << KIND_SHIFT) | bank.ispb(), accountNumber);
    }

    /** A bank's cautionary holds account (MED): the credit side of the holds on its customers' funds. */
    public static Id128 fraudHolds(BankId bank) {
        return new Id128(((long) AccountKind.FRAUD_HOLDS.code << KIND_SHIFT) | bank.ispb(), 0);
    }

    public static NewAccount fraudHoldsAccount(BankId bank) {
        return new NewAccount(
                fraudHolds(bank),
                LEDGER_BRL,
                AccountKind.FRAUD_HOLDS.code,
                AccountFlags.NONE,
                Id128.ZERO,
                0,
                bank.ispb());
    }

    /** The returns control account, one per ledger. */
    public static Id128 returnsControl() {
        return new Id128((long) AccountKind.RETURNS_CONTROL.code << KIND_SHIFT, 0);
    }

    /**
     * A settled payment's returnable account: the kind in the top byte, then the payment id without its low byte
     * (always zero, {@link PaymentId}) — so the account names its payment and no lookup maps one to the other.
     */
    public static Id128 returnable(PaymentId payment) {
        long hi = payment.value().hi();
        long lo = payment.value().lo();
        return new Id128(((long) AccountKind.RETURNABLE.code << KIND_SHIFT) | (hi >>> 8), (hi << 56) | (lo >>> 8));
    }

    /** The payment a returnable account belongs to; empty for any other account. */
    public static Optional<PaymentId> paymentOfReturnable(Id128 account) {
        if (kindOf(account).orElse(null) != AccountKind.RETURNABLE) {
            return Optional.empty();
        }
        long hi = (account.hi() << 8) | (account.lo() >>> 56);
        long lo = account.lo() << 8;
        Id128 id = new Id128(hi, lo);
        return id.isZero() ? Optional.empty() : Optional.of(new PaymentId(id));
    }

    public static NewAccount returnsControlAccount() {
        return NewAccount.of(returnsControl(), LEDGER_BRL, AccountKind.RETURNS_CONTROL.code, AccountFlags.NONE);
    }

    public static NewAccount returnableAccount(PaymentId payment) {
        return NewAccount.of(
                returnable(payment),
                LEDGER_BRL,
                AccountKind.RETURNABLE.code,
                AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS);
    }

    public static Optional<AccountKind> kindOf(Id128 account) {
        return AccountKind.ofCode((int) (account.hi() >>> KIND_SHIFT));
    }

    /** The bank an account belongs to; empty for the central bank and for ids outside the scheme. */
    public static Optional<BankId> bankOf(Id128 account) {
        Optional<AccountKind> kind = kindOf(account);
        if (kind.isEmpty()
                || kind.get() == AccountKind.CENTRAL_BANK
                || kind.get() == AccountKind.RETURNABLE
                || kind.get() == AccountKind.RETURNS_CONTROL) {
            return Optional.empty();
        }
        long ispb = account.hi() & 0xFFFF_FFFFL;
        if (ispb > BankId.ISPB_MAX || (account.hi() & 0x00FF_FFFF_0000_0000L) != 0) {
            return Optional.empty();
        }
        return Optional.of(new BankId((int) ispb));
    }

    public static boolean isCustomer(Id128 account) {
        return kindOf(account).orElse(null) == AccountKind.CUSTOMER
                && bankOf(account).isPresent()
                && account.lo() > 0;
    }

    public static NewAccount centralBankAccount() {
        return NewAccount.of(centralBank(), LEDGER_BRL, AccountKind.CENTRAL_BANK.code, AccountFlags.NONE);
    }

    /** A bank's reserve and transit accounts, linked: a bank is registered whole or not at all. */
    public static List<NewAccount> bankAccounts(BankId bank) {
        return List.of(
                new NewAccount(
                        reserve(bank),
                        LEDGER_BRL,
                        AccountKind.RESERVE.code,
                        AccountFlags.LINKED | AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS,
                        Id128.ZERO,
                        0,
                        bank.ispb()),
                new NewAccount(
                        transit(bank),
                        LEDGER_BRL,
                        AccountKind.TRANSIT.code,
                        AccountFlags.NONE,
                        Id128.ZERO,
                        0,
                        bank.ispb()));
    }

    public static NewAccount customerAccount(BankId bank, long accountNumber) {
        return new NewAccount(
                customer(bank, accountNumber),
                LEDGER_BRL,
                AccountKind.CUSTOMER.code,
                AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS,
                Id128.ZERO,
                0,
                bank.ispb());
    }
}
