package io.pagora.clearing.application;

import io.pagora.events.PaymentRequested;
import io.pagora.settlement.domain.PaymentId;
import java.time.Instant;
import java.util.List;

/**
 * Port: parks reserved payments whose receiving bank may not answer until {@code deadline} (when their pending chains
 * have timed out), for the expiry worker. Both return only when durably stored.
 */
public interface UnansweredPayments {

    /** Parks whole requests: the in-process bank did not answer them, or clearing set them aside (maybe unreserved). */
    void park(List<PaymentRequested> payments, Instant deadline);

    /**
     * Parks instructed payments by id alone: their chains are reserved, so the ledger holds everything the expiry path
     * needs (payer, payee, amount, acceptance time), and every payment is parked while most are answered in time, so
     * the parked form is kept to its id.
     */
    void parkInstructed(List<PaymentId> payments, Instant deadline);
}
