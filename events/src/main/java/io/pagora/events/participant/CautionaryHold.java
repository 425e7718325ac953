package io.pagora.events.participant;

import java.time.Instant;

/**
 * A cautionary hold on a customer's funds (MED, docs/med.md), to the customer's bank: {@code HELD} when an infraction
 * report's trace holds money found in the account (the customer cannot spend it), {@code RELEASED} when the report is
 * rejected, or refunded without this hold, and the hold is voided, {@code REFUNDED} when the report is accepted and
 * {@code heldCentavos} of the hold go back to the victim as a return ({@code FR01}) and the rest is released. Unless
 * decided, a hold lapses by itself at {@code holdUntil}.
 *
 * @param paymentId the reported payment the money came from
 * @param hop how many payments away from the reported payment the money was found (0: its payee's account)
 */
public record CautionaryHold(
        String id,
        String paymentId,
        String reportId,
        String accountId,
        int hop,
        long heldCentavos,
        String status,
        Instant holdUntil,
        Instant occurredAt)
        implements ParticipantMessage {

    /** The notice of hold {@code position} of {@code reportId} in {@code status}: one id per state, for good. */
    public static String idOf(String reportId, int position, String status) {
        return "hold-" + reportId + "-" + position + "-" + status.toLowerCase(java.util.Locale.ROOT);
    }
}
