package io.pagora.events.participant;

import java.time.Instant;

/**
 * To the payee's bank: the payer's money is reserved; accept the credit or refuse it before {@code answerBy}.
 * No answer by then and the reservation lapses (the payment expires, nothing moves). PIX's pacs.008; for a return
 * (devolução) PIX's pacs.004, sent to the original payer's bank, which is this return's payee's bank.
 *
 * @param endToEndId the payment's PIX end-to-end id; a return's return id (D…)
 * @param originalPaymentId for a return, the payment it returns (all or part of); null for a payment
 * @param returnReason for a return, why (a PIX return reason code: BE08, FR01, MD06, SL02); null for a payment
 */
public record PaymentInstruction(
        String id,
        String paymentId,
        String endToEndId,
        String payerAccountId,
        String payeeAccountId,
        long amountCentavos,
        Instant acceptedAt,
        Instant answerBy,
        String originalPaymentId,
        String returnReason)
        implements ParticipantMessage {

    /** An instruction for a payment (not a return). */
    public PaymentInstruction(
            String id,
            String paymentId,
            String endToEndId,
            String payerAccountId,
            String payeeAccountId,
            long amountCentavos,
            Instant acceptedAt,
            Instant answerBy) {
        this(
                id,
                paymentId,
                endToEndId,
                payerAccountId,
                payeeAccountId,
                amountCentavos,
                acceptedAt,
                answerBy,
                null,
                null);
    }

    /** One instruction per payment: its id is the payment's. */
    public static String idOf(String paymentId) {
        return "instruction-" + paymentId;
    }
}
