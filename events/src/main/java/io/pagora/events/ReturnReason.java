package io.pagora.events;

import java.util.Optional;

/**
 * Why the payee's bank returns a payment (a devolução, ISO 20022 pacs.004): the closed list of PIX return reasons.
 * The name is the code on the wire.
 */
public enum ReturnReason {
    /** The payee's bank made an error. */
    BE08(1, "bank error"),
    /** Fraud is suspected. */
    FR01(2, "fraud"),
    /** The payee (the customer who was paid) asked to refund it. */
    MD06(3, "refund requested by the customer"),
    /** A reason specific to the service the payment paid for (PIX Saque / Troco). */
    SL02(4, "service-specific reason");

    /** The number the ledger keeps for it (a return's returned-amount leg's {@code user_data_32}); never 0. */
    public final int number;

    public final String meaning;

    ReturnReason(int number, String meaning) {
        this.number = number;
        this.meaning = meaning;
    }

    /** The reason the ledger's number names, or empty. */
    public static Optional<ReturnReason> ofNumber(int number) {
        for (ReturnReason reason : values()) {
            if (reason.number == number) {
                return Optional.of(reason);
            }
        }
        return Optional.empty();
    }

    /** The reason a code names, or empty if it names none (a code is exact: upper case, 4 characters). */
    public static Optional<ReturnReason> ofCode(String code) {
        for (ReturnReason reason : values()) {
            if (reason.name().equals(code)) {
                return Optional.of(reason);
            }
        }
        return Optional.empty();
    }
}
