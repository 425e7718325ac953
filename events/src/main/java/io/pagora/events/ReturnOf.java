package io.pagora.events;

/**
 * What a return (devolução) returns: all or part of a settled payment, sent back by its payee's bank from its payee to
 * its payer. Every event of a return carries it, so a consumer links a return to its original whatever it reads first.
 *
 * @param originalPaymentId the payment returned
 * @param originalAmountCentavos its amount, the most all its returns together may return; 0 in an outcome clearing
 *     read back from the ledger (which keeps the original's amount in its returnable account, not in the return)
 * @param reason why
 */
public record ReturnOf(String originalPaymentId, long originalAmountCentavos, ReturnReason reason) {}
