package io.pagora.events.participant;

import java.time.Instant;

/**
 * To the payee's bank: the payer's money is reserved; accept the credit or refuse it before {@code answerBy}.
 * No answer by then and the reservation lapses (the payment expires, nothing moves). PIX's pacs.008.
 */
public record PaymentInstruction(
        String id,
        String paymentId,
        String endToEndId,
        String payerAccountId,
        String payeeAccountId,
        long amountCentavos,
        Instant acceptedAt,
        Instant answerBy) implements ParticipantMessage {

    /** One instruction per payment: its id is the payment's. */
    public static String idOf(String paymentId) {
        return "instruction-" + paymentId;
    }
}
