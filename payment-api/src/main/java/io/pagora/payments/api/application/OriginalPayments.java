package io.pagora.payments.api.application;

import io.pagora.payments.api.domain.OriginalPayment;
import io.pagora.settlement.domain.PaymentId;
import java.util.Collection;
import java.util.Map;

/** The payments the ledger holds, as a return sees them. */
public interface OriginalPayments {

    /**
     * Every id the ledger holds a payment's chain under, in a constant number of ledger requests whatever the count;
     * an id it holds none under is absent from the answer.
     */
    Map<PaymentId, OriginalPayment> find(Collection<PaymentId> ids);
}
