package io.pagora.events.participant;

import java.time.Instant;

/**
 * A payment's final state, to each bank of it: the payer's bank (role {@code PAYER}) and, if it was instructed,
 * the payee's bank (role {@code PAYEE}: a {@code SETTLED} is PIX's pacs.002 ACSC — credit the customer now).
 * {@code status} is {@code SETTLED}, {@code REJECTED} (with {@code reason}) or {@code EXPIRED}; {@code endToEndId} the
 * payment's PIX end-to-end id (a return's return id) when its outcome carries it (see PaymentOutcome), else null.
 */
public record PaymentConcluded(
        String id,
        String paymentId,
        Role role,
        String status,
        String reason,
        String payerAccountId,
        String payeeAccountId,
        long amountCentavos,
        Instant occurredAt,
        String endToEndId)
        implements ParticipantMessage {

    public enum Role {
        PAYER,
        PAYEE
    }

    /** Without an end-to-end id. */
    public PaymentConcluded(
            String id,
            String paymentId,
            Role role,
            String status,
            String reason,
            String payerAccountId,
            String payeeAccountId,
            long amountCentavos,
            Instant occurredAt) {
        this(id, paymentId, role, status, reason, payerAccountId, payeeAccountId, amountCentavos, occurredAt, null);
    }

    /** One outcome per payment and role: a payment has one final state, so the id names the message for good. */
    public static String idOf(String paymentId, Role role) {
        return "outcome-" + paymentId + "-" + role.name().toLowerCase(java.util.Locale.ROOT);
    }
}
