package io.pagora.clearing.application;

import io.pagora.events.PaymentRequested;
import java.time.Instant;
import java.util.List;

/**
 * Port: tells each payee's bank, over its stream, that a payment to one of its customers is reserved and waits
 * for its answer until {@code answerBy}. Batched per bank, never one message exchange per payment. Returns only
 * once the instructions are durably stored; a redelivery may issue an instruction again (banks drop duplicates
 * by message id).
 */
public interface Instructions {

    void issue(List<PaymentRequested> payments, Instant answerBy);
}
