package io.pagora.clearing.application;

import io.pagora.events.PaymentOutcome;
import java.util.List;

/**
 * Port: publishes payment outcomes. Returns only when every outcome is durably acknowledged, and
 * throws otherwise, so the caller never commits its input before its outputs exist.
 */
public interface OutcomePublisher {

    void publish(List<PaymentOutcome> outcomes);
}
