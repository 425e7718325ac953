package io.pagora.clearing.domain;

import io.pagora.kernel.Texts;
import java.util.Objects;

/**
 * What the receiving bank said about crediting its customer. A business answer, never an exception:
 * a connector maps its transport timeouts to {@link NoAnswer}.
 */
public sealed interface BankAnswer {

    /** The receiving bank accepted the credit: post the reserved chain. */
    record Accepted() implements BankAnswer {}

    /** The receiving bank refused the credit (e.g. closed account): void the reserved chain. */
    record Refused(String reason) implements BankAnswer {

        /** A bank's reason is foreign text: cleaned and bounded before it travels in an event. */
        public static final int REASON_LENGTH_MAX = 200;

        public Refused {
            reason = Texts.clean(Objects.requireNonNull(reason, "reason"), REASON_LENGTH_MAX);
        }
    }

    /**
     * No answer within the bank's window. Clearing neither posts nor voids now: the chain waits for
     * its pending timeout, then it is voided (or found expired) and the payment expires.
     */
    record NoAnswer() implements BankAnswer {}

    BankAnswer ACCEPTED = new Accepted();
    BankAnswer NO_ANSWER = new NoAnswer();
}
