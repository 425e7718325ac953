package io.pagora.reporting.domain;

import io.pagora.kernel.Check;
import java.time.Instant;
import java.util.Objects;

/**
 * A payment's outcome as the read model stores it, written once. {@code reason} and {@code detail} are
 * set only for rejections; {@code finalAt} is when the outcome happened (the event's occurredAt).
 */
public record FinalState(PaymentStatus status, String reason, String detail, Instant finalAt) {

    public FinalState {
        Check.that(status.isFinal(), "a final state is SETTLED, REJECTED or EXPIRED, not %s", status);
        Check.that(finalAt != null, "a final state has a time");
        Check.that(reason == null || status == PaymentStatus.REJECTED, "only a rejection has a reason");
    }

    /**
     * Whether two outcomes of one payment say the same thing: same status and same reason. The detail
     * and the time are not compared: a redelivered or re-emitted outcome may carry another wording or
     * timestamp of the same fact, and the first one projected stays.
     */
    public boolean sameOutcomeAs(PaymentStatus otherStatus, String otherReason) {
        if (status != otherStatus) {
            return false;
        }
        // A replayed refused payment (client retry or redelivery) meets the ledger's burned ids and can
        // only say PREVIOUSLY_FAILED: the same rejection, with its original reason no longer knowable.
        return Objects.equals(reason, otherReason)
                || PREVIOUSLY_FAILED.equals(reason)
                || PREVIOUSLY_FAILED.equals(otherReason);
    }

    private static final String PREVIOUSLY_FAILED = "PREVIOUSLY_FAILED";

    /** For logs and alarms: SETTLED, or REJECTED(INSUFFICIENT_FUNDS). */
    public String describe() {
        return describe(status, reason);
    }

    public static String describe(PaymentStatus status, String reason) {
        return reason == null ? status.name() : status.name() + "(" + reason + ")";
    }
}
