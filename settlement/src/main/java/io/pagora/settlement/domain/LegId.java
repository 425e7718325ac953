package io.pagora.settlement.domain;

import io.pagora.kernel.Id128;

/**
 * Derives every transfer id of a payment from its {@link PaymentId}, so a retry after a crash at any
 * point reproduces exactly the same transfers (and the ledger answers {@code exists}).
 *
 * <pre>
 *   transferId = paymentId with its low byte set to (phase &lt;&lt; 4) | leg
 *   phase: 1 pending, 2 post, 3 void          leg: 1, 2, 3 (interbank) or 1 (on-us), then the returned
 *                                             amount's leg of a return: 4 (interbank) or 2 (on-us)
 *   a returnable account's opening: the original payment's id with its low byte 0x40 (phase 4, leg 0)
 * </pre>
 *
 * For payment {@code 0x…00}: pending legs are {@code 0x…11, 0x…12, 0x…13}, post legs
 * {@code 0x…21, 0x…22, 0x…23}, void legs {@code 0x…31, 0x…32, 0x…33}. Derived ids stay time-ordered
 * next to their payment and never equal a payment id (whose low byte is zero).
 */
public final class LegId {

    public enum Phase {
        PENDING(1),
        POST(2),
        VOID(3);

        final int tag;

        Phase(int tag) {
            this.tag = tag;
        }
    }

    public static final int LEGS_MAX = 4;
    private static final int OPENING_TAG = 0x40;

    private LegId() {}

    public static Id128 of(PaymentId payment, Phase phase, int leg) {
        if (leg < 1 || leg > LEGS_MAX) {
            throw new IllegalArgumentException("leg is 1.." + LEGS_MAX + ": " + leg);
        }
        return new Id128(payment.value().hi(), payment.value().lo() | (phase.tag << 4) | leg);
    }

    /** The transfer that opens {@code original}'s returnable account (credits it with the payment's amount). */
    public static Id128 returnableOpening(PaymentId original) {
        return new Id128(original.value().hi(), original.value().lo() | OPENING_TAG);
    }

    /** The payment a derived transfer id belongs to. */
    public static PaymentId paymentOf(Id128 transferId) {
        return new PaymentId(new Id128(transferId.hi(), transferId.lo() & ~0xFFL));
    }
}
