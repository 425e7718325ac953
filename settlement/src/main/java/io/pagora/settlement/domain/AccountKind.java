package io.pagora.settlement.domain;

import java.util.Optional;

/** The kinds of account in the PIX chart of accounts; {@link #code} is the ledger account code. */
public enum AccountKind {
    /** The issuer: funds reserves, so it is the only account allowed to go negative. */
    CENTRAL_BANK(1),
    /** A participant's settlement account at the central bank: interbank money moves here. */
    RESERVE(2),
    /** A participant's internal clearing account: collects from payers, pays out to payees, funds customers. */
    TRANSIT(3),
    /** A customer's account at a participant bank. */
    CUSTOMER(4),
    /**
     * A settled payment's returnable amount, a memorandum account (no customer's or bank's money): credited once with
     * the payment's amount when its first return is reserved, debited by each return's chain. Limited, so the ledger
     * itself refuses a return beyond what is left, pending returns included — two returns racing for the last
     * centavos cannot both reserve.
     */
    RETURNABLE(5),
    /** The other side of every returnable account's entries: one per ledger, unlimited (it goes negative). */
    RETURNS_CONTROL(6),
    /**
     * A bank's cautionary holds (MED, docs/med.md): the credit side of every pending hold on one of its customers'
     * funds. Unlimited; it holds pending credits only, so its posted balance stays zero until a refund posts a hold.
     */
    FRAUD_HOLDS(7);

    public final int code;

    AccountKind(int code) {
        this.code = code;
    }

    public static Optional<AccountKind> ofCode(int code) {
        // A switch, not a stream over values(): every service asks this several times per payment.
        return Optional.ofNullable(
                switch (code) {
                    case 1 -> CENTRAL_BANK;
                    case 2 -> RESERVE;
                    case 3 -> TRANSIT;
                    case 4 -> CUSTOMER;
                    case 5 -> RETURNABLE;
                    case 6 -> RETURNS_CONTROL;
                    case 7 -> FRAUD_HOLDS;
                    default -> null;
                });
    }
}
