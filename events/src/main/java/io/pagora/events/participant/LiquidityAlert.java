package io.pagora.events.participant;

import java.time.Instant;

/**
 * A bank's reserve against the liquidity watermarks it or the operator set (docs/operations.md, Liquidity alerts):
 * {@code FELL_BELOW_LOW} the first time its available balance is read below the low watermark; then nothing until
 * {@code RECOVERED_ABOVE_HIGH} (read above the high one) or {@code CLEARED_BY_FUNDING} (the operator funded it back
 * to the low one at least). No payment: {@code paymentId} is null.
 *
 * @param id {@code liquidity-<ispb>-<sequence>}: the bank's crossings numbered from 1, one id per crossing for good
 * @param availableCentavos the reserve's available balance in the reading that crossed
 */
public record LiquidityAlert(
        String id,
        String paymentId,
        String crossing,
        long availableCentavos,
        long lowWatermarkCentavos,
        long highWatermarkCentavos,
        Instant occurredAt)
        implements ParticipantMessage {

    /** The id of {@code bank}'s crossing number {@code sequence}. */
    public static String idOf(String bank, long sequence) {
        return "liquidity-" + bank + "-" + sequence;
    }
}
