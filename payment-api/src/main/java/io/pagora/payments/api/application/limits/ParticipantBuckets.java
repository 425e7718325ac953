package io.pagora.payments.api.application.limits;

import io.pagora.settlement.domain.access.Caller;

/**
 * A token bucket per participant, as {@link ParticipantLimits} and {@link UnknownAccountLimit} spend it: in this
 * instance's memory only ({@link ParticipantTokenBuckets}), or switch-wide, leased from a store every payment-api
 * instance shares ({@link LeasedTokenBuckets}). Answers are waits in whole seconds (a refusal's Retry-After).
 */
public interface ParticipantBuckets {

    /** Tracks the participant from now on, or answers false when {@link #participantsMax} are tracked already. */
    boolean track(Caller participant);

    /** Whether the participant is tracked already. Changes nothing. */
    boolean tracks(Caller participant);

    /** Takes {@code tokens}, all or none: 0 if taken, else the whole seconds until they would be (at least 1). */
    long take(Caller participant, int tokens);

    /** Whole seconds until the participant's bucket holds {@code tokens}: 0 if it does now. Takes nothing. */
    long secondsUntil(Caller participant, int tokens);

    /** Takes {@code tokens} whatever the bucket holds, into debt if need be: for a cost known after the work. */
    void takeIntoDebt(Caller participant, int tokens);

    /** Participants tracked (a gauge). */
    int participants();

    int participantsMax();

    /** The rate, as a refusal states it: "3750 at once, 750 a second". */
    String rate();
}
