package io.pagora.events.participant;

/**
 * What became of one answer, as the ledger decided it. {@code status} is the payment's final state where known
 * ({@code SETTLED}, {@code REJECTED}, {@code EXPIRED}), empty otherwise.
 */
public record Verdict(String paymentId, Code code, String status) {

    public enum Code {
        /** The answer took effect, now or as the same answer earlier: the payment is {@code status}. */
        APPLIED,
        /** The payment was resolved otherwise (the other answer came first): nothing moved now. */
        CONFLICT,
        /** The reservation lapsed before the answer: nothing moved. */
        EXPIRED,
        /** No payment under this id was addressed to this bank. */
        UNKNOWN_PAYMENT,
        /** The ledger holds something else under this payment's ids: an integrity alarm, never a refusal. */
        UNRESOLVED
    }
}
