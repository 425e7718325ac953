package io.pagora.clearing.application;

import io.pagora.events.PaymentOutcome;
import java.util.List;
import java.util.Set;

/**
 * Port: publishes payment outcomes. Returns only when every outcome is durably acknowledged, and
 * throws otherwise, so the caller never commits its input before its outputs exist.
 */
public interface OutcomePublisher {

    /**
     * @param payerOnly ids of payments whose payee's bank was never instructed: their outcome goes to the payer's
     *     bank only, for the payee's bank never heard of them
     */
    void publish(List<PaymentOutcome> outcomes, Set<String> payerOnly);

    /** Outcomes of payments told to both banks wherever the payee's bank may have been instructed. */
    default void publish(List<PaymentOutcome> outcomes) {
        publish(outcomes, Set.of());
    }
}
