package io.pagora.settlement.domain.med;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.PaymentId;

/**
 * Derives a report's hold and release transfer ids from the report's id (a {@link PaymentId}-shaped id, drawn from
 * the same time-ordered generator, low byte zero): hold {@code i} of the trace is the report id with its low byte
 * {@code 0x80 | i}, its release (void) {@code 0xC0 | i}. A retried filing or release makes the same transfers, so the
 * ledger answers {@code exists}; a payment's own legs use low bytes up to 0x40, so they never meet.
 */
public final class HoldIds {

    /** Positions in one trace: six bits of the low byte. */
    public static final int POSITIONS_MAX = 64;

    private static final int HOLD_TAG = 0x80;
    private static final int RELEASE_TAG = 0xC0;

    private HoldIds() {}

    public static Id128 hold(PaymentId report, int position) {
        return derived(report, HOLD_TAG, position);
    }

    public static Id128 release(PaymentId report, int position) {
        return derived(report, RELEASE_TAG, position);
    }

    private static Id128 derived(PaymentId report, int tag, int position) {
        Check.that(
                position >= 0 && position < POSITIONS_MAX,
                "a trace position in 0..%d: %d",
                POSITIONS_MAX - 1,
                position);
        return new Id128(report.value().hi(), report.value().lo() | tag | position);
    }
}
