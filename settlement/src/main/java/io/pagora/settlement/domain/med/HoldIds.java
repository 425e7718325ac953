package io.pagora.settlement.domain.med;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.PaymentId;

/**
 * Derives a report's hold and release transfer ids from the report's id (a {@link PaymentId}-shaped id, drawn from
 * the same time-ordered generator, low byte zero): hold {@code i} of the trace is the report id with its low byte
 * {@code 0x80 | i}, its release (void) {@code 0xC0 | i}. A retried filing or release makes the same transfers, so the
 * ledger answers {@code exists}; a payment's own legs use low bytes up to 0x40, so they never meet.
 *
 * <p>The refund of hold {@code i} is a return payment whose id derives from the report's and the position
 * ({@link #refund}); the void that frees the hold for it, linked first in its chain, is that payment's id with its low
 * byte {@code 0x50}, next to its legs (0x11 to 0x34) and never one of them. A refund's void and a release's differ, so
 * the ledger tells which one freed a hold.
 */
public final class HoldIds {

    /** Positions in one trace: six bits of the low byte. */
    public static final int POSITIONS_MAX = 64;

    private static final int HOLD_TAG = 0x80;
    private static final int RELEASE_TAG = 0xC0;
    private static final int REFUND_VOID_TAG = 0x50;

    private HoldIds() {}

    public static Id128 hold(PaymentId report, int position) {
        return derived(report, HOLD_TAG, position);
    }

    public static Id128 release(PaymentId report, int position) {
        return derived(report, RELEASE_TAG, position);
    }

    /**
     * The return payment that refunds hold {@code position} of {@code report}: the first 128 bits of SHA-256 of
     * {@code "med-refund:" + report + ":" + position}, its low byte cleared (its legs use it). A retried refund names
     * the same payment, so the ledger reserves it once and clearing settles it once.
     */
    public static PaymentId refund(PaymentId report, int position) {
        Check.that(
                position >= 0 && position < POSITIONS_MAX,
                "a trace position in 0..%d: %d",
                POSITIONS_MAX - 1,
                position);
        return PaymentId.derived("med-refund:" + report + ":" + position);
    }

    /** The void that frees a hold for its refund {@code refund}, first in the refund's chain. */
    public static Id128 refundVoid(PaymentId refund) {
        return new Id128(refund.value().hi(), refund.value().lo() | REFUND_VOID_TAG);
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
