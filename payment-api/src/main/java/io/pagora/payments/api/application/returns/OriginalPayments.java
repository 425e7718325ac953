package io.pagora.payments.api.application.returns;

import io.pagora.payments.api.domain.OriginalPayment;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import java.util.Collection;
import java.util.Map;
import java.util.function.Predicate;

/** The payments the ledger holds, as a return sees them. */
public interface OriginalPayments {

    /**
     * Every id the ledger holds a payment's chain under, in a constant number of ledger requests whatever the count;
     * an id it holds none under is absent from the answer. So is a payment {@code visible} rejects, after the one
     * lookup an absent id costs: who may not see a payment learns nothing of it, not even from the time it took.
     */
    Map<PaymentId, OriginalPayment> find(Collection<PaymentId> ids, Predicate<Payment> visible);
}
