package io.pagora.payments.api.domain.liquidity;

import io.pagora.kernel.Check;
import java.time.Instant;
import java.util.Optional;

/**
 * Where one bank's reserve stands against its {@link Watermarks}, as the last reading left it: {@code ARMED} (an alert
 * will be raised when the balance falls below the low watermark) or {@code ALERTED} (raised; re-armed only once the
 * balance is above the high watermark, or when the operator funds the reserve back to the low one at least).
 *
 * @param since when the watch entered its state
 */
public record ReserveWatch(State state, Instant since) {

    public enum State {
        ARMED,
        ALERTED
    }

    /** What a reading changed: an alert raised, or one cleared. */
    public enum Crossing {
        FELL_BELOW_LOW,
        RECOVERED_ABOVE_HIGH,
        CLEARED_BY_FUNDING
    }

    /** The watch after a reading, and the crossing it made, if any. */
    public record Observed(ReserveWatch watch, Optional<Crossing> crossing) {}

    public ReserveWatch {
        Check.that(state != null && since != null, "a watch has a state since an instant");
    }

    /** A bank never read: armed. */
    public static ReserveWatch armed(Instant at) {
        return new ReserveWatch(State.ARMED, at);
    }

    /** A reading of the reserve's available balance at {@code at}. */
    public Observed read(long availableCentavos, Watermarks marks, Instant at) {
        if (state == State.ARMED && availableCentavos < marks.lowCentavos()) {
            return new Observed(new ReserveWatch(State.ALERTED, at), Optional.of(Crossing.FELL_BELOW_LOW));
        }
        if (state == State.ALERTED && availableCentavos > marks.highCentavos()) {
            return new Observed(new ReserveWatch(State.ARMED, at), Optional.of(Crossing.RECOVERED_ABOVE_HIGH));
        }
        return new Observed(this, Optional.empty());
    }

    /**
     * The operator funded the reserve, which now holds {@code availableCentavos}: funding back to the low watermark
     * clears an alert (the bank was seen to), even short of the high one.
     */
    public Observed funded(long availableCentavos, Watermarks marks, Instant at) {
        if (state == State.ALERTED && availableCentavos >= marks.lowCentavos()) {
            Crossing crossing = availableCentavos > marks.highCentavos()
                    ? Crossing.RECOVERED_ABOVE_HIGH
                    : Crossing.CLEARED_BY_FUNDING;
            return new Observed(new ReserveWatch(State.ARMED, at), Optional.of(crossing));
        }
        return read(availableCentavos, marks, at);
    }
}
