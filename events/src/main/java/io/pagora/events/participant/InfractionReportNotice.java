package io.pagora.events.participant;

import java.time.Instant;

/**
 * An infraction report (MED, docs/med.md) on a settled payment, to a bank it concerns: the payee's bank when it is
 * filed ({@code status} OPEN: analyse it by {@code analyseBy}), and both banks when it is decided (ACCEPTED, REJECTED)
 * or escalated to the operator for want of an analysis (ESCALATED), and both banks when an accepted report's refund is
 * paid out as returns (REFUNDED: each return then settles as any return does).
 *
 * @param paymentId the reported payment
 * @param role {@code PAYER} (the bank that filed it) or {@code PAYEE} (the bank that analyses it)
 * @param reason {@code FRAUD}, {@code COERCION} or {@code OPERATIONAL_FAILURE}
 * @param heldCentavos what the trace holds of the payment's amount, across every account it reached
 * @param decisionReason the analysing bank's reason, for a decided report (else null)
 */
public record InfractionReportNotice(
        String id,
        String paymentId,
        String reportId,
        String role,
        String status,
        String reason,
        long amountCentavos,
        long heldCentavos,
        Instant analyseBy,
        String decisionReason,
        Instant occurredAt)
        implements ParticipantMessage {

    /** The notice of {@code reportId} in {@code status} to {@code role}: one id per state and bank, for good. */
    public static String idOf(String reportId, String status, String role) {
        return "report-" + reportId + "-" + status.toLowerCase(java.util.Locale.ROOT) + "-"
                + role.toLowerCase(java.util.Locale.ROOT);
    }
}
