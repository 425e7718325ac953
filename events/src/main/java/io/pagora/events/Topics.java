package io.pagora.events;

/**
 * Topic names and partition counts. Payment events are keyed by the payer's account id, so one
 * account's payments keep their order. Partition counts are explicit, not broker defaults: they bound
 * the consumers' parallelism (6 fits a 2-core machine with room to scale out).
 */
public final class Topics {

    private Topics() {}

    public static final String PAYMENTS_REQUESTED = "pagora.payments.requested.v1";
    public static final String PAYMENT_OUTCOMES = "pagora.payments.outcomes.v1";
    /**
     * On every outcome record: the payment's id (32 hex digits, ASCII), so a reader that needs only which payments
     * are resolved (each clearing instance, for its instructed window) does not decode the outcome.
     */
    public static final String PAYMENT_ID_HEADER = "pagora-payment-id";
    /**
     * Requests set aside, never silently dropped (see {@link DeadLetterConvention}), by two writers: clearing (not
     * a valid payment request, failed alone after retries, or an integrity alarm) and reporting (not projectable).
     */
    public static final String PAYMENTS_REQUESTED_DEAD_LETTER = "pagora.payments.requested.v1.dlt";
    /** Outcomes reporting set aside: undecodable, breaking an event rule, or failing alone after retries. */
    public static final String PAYMENT_OUTCOMES_DEAD_LETTER = "pagora.payments.outcomes.v1.dlt";
    /** Clearing-internal: reserved payments the receiving bank did not answer, waiting for their timeout. */
    public static final String CLEARING_UNANSWERED = "pagora.clearing.unanswered.v1";

    /**
     * The switch's messages to participants (instructions and outcomes), batched, keyed by the recipient's ISPB:
     * each participant's stream reads its own in order (docs/participants.md).
     */
    public static final String PARTICIPANT_MESSAGES = "pagora.participants.messages.v1";
    /** Participants' answers to instructions, one record per answering call, keyed by the bank's ISPB. */
    public static final String PARTICIPANT_ANSWERS = "pagora.participants.answers.v1";
    /** Clearing's verdict on each answering call, keyed by the call's id, for the gateway that holds the call. */
    public static final String PARTICIPANT_VERDICTS = "pagora.participants.verdicts.v1";

    public static final int PARTITIONS = 6;
}
