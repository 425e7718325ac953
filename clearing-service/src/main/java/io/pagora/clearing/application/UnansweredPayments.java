package io.pagora.clearing.application;

import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Check;
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
     * Parks instructed payments by id and end-to-end id: their chains are reserved, so the ledger holds everything
     * else the expiry path needs (payer, payee, amount, acceptance time), and every payment is parked while most are
     * answered in time, so the parked form is kept small.
     */
    void parkInstructed(List<Instructed> payments, Instant deadline);

    /**
     * An instructed payment as parked: its id, and its end-to-end id (null if the request had none), which the
     * ledger does not keep and its outcome carries, whichever instance expires it.
     */
    record Instructed(PaymentId payment, String endToEndId) {

        public Instructed {
            Check.that(payment != null, "an instructed payment has an id");
        }
    }
}
