package io.pagora.settlement.domain;

import io.pagora.kernel.Id128;
import java.security.SecureRandom;
import java.time.Clock;

/**
 * Generates {@link PaymentId}-shaped ids: 48-bit millisecond time, 72 random bits, a zero low byte.
 *
 * <p>Within one millisecond (or if the clock steps back) the previous id is incremented instead of
 * drawing new randomness, so ids from one generator strictly ascend. Ids from different processes
 * collide only if they share a millisecond and 72 random bits.
 */
public final class TimeOrderedIds {

    private static final long RANDOM_HI_MASK = 0xFFFFL;
    private static final long LOW_BYTE_STEP = 0x100L;

    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private long lastHi;
    private long lastLo;

    public TimeOrderedIds(Clock clock) {
        this.clock = clock;
    }

    public TimeOrderedIds() {
        this(Clock.systemUTC());
    }

    public synchronized Id128 next() {
        long millis = clock.millis();
        if (millis <= (lastHi >>> 16) && lastHi != 0) {
            return increment();
        }
        lastHi = (millis << 16) | (random.nextLong() & RANDOM_HI_MASK);
        lastLo = random.nextLong() & ~0xFFL;
        return new Id128(lastHi, lastLo);
    }

    /** When an id of this scheme was made (epoch milliseconds): its high 48 bits. */
    public static long issuedAtMillis(Id128 id) {
        return id.hi() >>> 16;
    }

    public PaymentId nextPaymentId() {
        return new PaymentId(next());
    }

    private Id128 increment() {
        lastLo += LOW_BYTE_STEP;
        if (lastLo == 0) {
            // The 56 random bits of the low half wrapped: carry into the high half's random bits.
            lastHi += 1;
        }
        return new Id128(lastHi, lastLo);
    }
}
