package io.pagora.reporting.domain;

/**
 * Something the events say that cannot both be true. The read model keeps what it projected first and
 * never overwrites it; the alarm is logged at ERROR and counted, for a human to investigate.
 */
public record IntegrityAlarm(Kind kind, String paymentId, String message) {

    public enum Kind {
        /** A second, different final state for a payment that already has one. */
        CONFLICTING_OUTCOME,
        /** Two events of one payment disagree on its payer, payee or amount. */
        INCONSISTENT_EVENT
    }

    public static IntegrityAlarm conflictingOutcome(String paymentId, String kept, String ignored) {
        return new IntegrityAlarm(
                Kind.CONFLICTING_OUTCOME,
                paymentId,
                "payment " + paymentId + " is already " + kept + "; ignored a later outcome " + ignored);
    }

    /** Two different outcomes of one payment in one poll: the first one goes on to the upsert. */
    public static IntegrityAlarm conflictingOutcomeInPoll(String paymentId, String first, String ignored) {
        return new IntegrityAlarm(
                Kind.CONFLICTING_OUTCOME,
                paymentId,
                "payment " + paymentId + " has two outcomes in one poll: kept the first, " + first
                        + "; ignored the later " + ignored);
    }

    public static IntegrityAlarm inconsistentEvent(String paymentId, String kept, String ignored) {
        return new IntegrityAlarm(
                Kind.INCONSISTENT_EVENT,
                paymentId,
                "payment " + paymentId + " was projected as " + kept + "; an event says " + ignored);
    }
}
