package io.pagora.settlement.domain;

import java.util.Arrays;
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
        return Arrays.stream(values()).filter(kind -> kind.code == code).findFirst();
    }
}
