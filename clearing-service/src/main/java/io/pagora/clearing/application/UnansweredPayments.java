package io.pagora.clearing.application;

import io.pagora.events.PaymentRequested;
import java.time.Instant;
import java.util.List;

/**
 * Port: parks reserved payments the receiving bank did not answer, until {@code deadline} (when
 * their pending chains have timed out), for the expiry worker. Returns only when durably stored.
 */
public interface UnansweredPayments {

    void park(List<PaymentRequested> payments, Instant deadline);
}
