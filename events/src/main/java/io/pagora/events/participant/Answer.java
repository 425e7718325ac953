package io.pagora.events.participant;

/**
 * A payee bank's answer to one instruction: accept ({@code refusal} null) or refuse with a {@link RefusalCode}.
 *
 * @param endToEndId the end-to-end id of the instruction answered, when the answer's writer has it (null otherwise;
 *     records written before this field existed read as null): the answered payment's outcome carries it, whichever
 *     clearing instance applies the answer
 */
public record Answer(String paymentId, boolean accept, RefusalCode refusal, String endToEndId) {

    public Answer {
        if (paymentId == null || accept == (refusal != null)) {
            throw new IllegalArgumentException("an answer names its payment, and a refusal (only) its reason");
        }
    }

    /** An answer without its end-to-end id. */
    public Answer(String paymentId, boolean accept, RefusalCode refusal) {
        this(paymentId, accept, refusal, null);
    }
}
