package io.pagora.payments.api.application.liquidity;

import io.pagora.kernel.Check;
import io.pagora.payments.api.domain.liquidity.ReserveWatch;
import io.pagora.payments.api.domain.liquidity.Watermarks;
import io.pagora.settlement.domain.BankId;
import java.util.Optional;

/**
 * One bank's watch as the store holds it: its watermarks, its state, and its crossings, numbered from 1 by
 * {@code sequence} (0: none yet); {@code told} is the last one delivered on the bank's stream.
 *
 * @param last the crossing numbered {@code sequence}, as recorded (empty while {@code sequence} is 0)
 */
public record WatchedReserve(
        BankId bank, Watermarks marks, ReserveWatch watch, long sequence, long told, Optional<Crossed> last) {

    /** A crossing as recorded: the watermarks and the available balance of the reading that made it. */
    public record Crossed(ReserveWatch.Crossing crossing, long availableCentavos, Watermarks marks) {}

    public WatchedReserve {
        Check.that(sequence >= 0 && told >= 0 && told <= sequence, "told %d of %d crossings", told, sequence);
        Check.that(last.isPresent() == (sequence > 0), "a last crossing exactly when there was one: %d", sequence);
    }

    /** Whether its last crossing still has to be told. */
    public boolean untold() {
        return told < sequence;
    }
}
