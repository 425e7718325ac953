package io.pagora.reporting.domain;

import io.pagora.ledger.domain.Check;
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
        return status == otherStatus && Objects.equals(reason, otherReason);
    }

    /** For logs and alarms: SETTLED, or REJECTED(INSUFFICIENT_FUNDS). */
    public String describe() {
        return describe(status, reason);
    }

    public static String describe(PaymentStatus status, String reason) {
        return reason == null ? status.name() : status.name() + "(" + reason + ")";
    }
}
