package io.pagora.events.participant;

/** A payee bank's answer to one instruction: accept ({@code refusal} null) or refuse with a {@link RefusalCode}. */
public record Answer(String paymentId, boolean accept, RefusalCode refusal) {

    public Answer {
        if (paymentId == null || accept == (refusal != null)) {
            throw new IllegalArgumentException("an answer names its payment, and a refusal (only) its reason");
        }
    }
}
