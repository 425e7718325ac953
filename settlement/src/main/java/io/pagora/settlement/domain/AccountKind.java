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
    CUSTOMER(4);

    public final int code;

    AccountKind(int code) {
        this.code = code;
    }

    public static Optional<AccountKind> ofCode(int code) {
        // A switch, not a stream over values(): every service asks this several times per payment.
        return Optional.ofNullable(switch (code) {
            case 1 -> CENTRAL_BANK;
            case 2 -> RESERVE;
            case 3 -> TRANSIT;
            case 4 -> CUSTOMER;
            default -> null;
        });
    }
}
