package io.pagora.clearing.application;

/**
 * A payment whose ids hold something else in the ledger, confirmed by reading its chain back. It
 * gets no outcome: it is not a refusal (nothing is known of it but the conflict), and the payment
 * the ledger holds under that id keeps its own. The adapter sets its record aside, loudly.
 */
public record Alarm(ClearingRequest request, String detail) {}
