package io.pagora.reporting.reconciliation.domain;

import io.pagora.kernel.Check;

/**
 * What the read model's SETTLED payments moved on one account, in centavos: out of it and into it. For a
 * customer, its statement's debits and credits; for a bank, its interbank payments sent and received
 * (on-us payments never touch a bank's reserve or transit).
 */
public record PaymentFlows(long outgoingCentavos, long incomingCentavos) {

    public static final PaymentFlows NONE = new PaymentFlows(0, 0);

    public PaymentFlows {
        Check.that(
                outgoingCentavos >= 0 && incomingCentavos >= 0,
                "flows are sums of positive amounts: %d, %d",
                outgoingCentavos,
                incomingCentavos);
    }
}
