package io.pagora.payments.api.domain.directory;

import io.pagora.kernel.Check;
import java.time.Duration;
import java.time.Instant;

/**
 * One anti-scanning bucket's level at an instant: it refills continuously at {@code refillPerMinute} up to
 * {@code burst}, and may go below zero, a debt the refill pays back first (a miss is charged after it is known).
 *
 * @param tokens the level at {@code at}
 */
public record TokenBucket(double tokens, Instant at) {

    public TokenBucket {
        Check.that(Double.isFinite(tokens), "a finite level");
        Check.that(at != null, "a level is at an instant");
    }

    /** A bucket seen for the first time: full. */
    public static TokenBucket full(Limits limits, Instant now) {
        return new TokenBucket(limits.burst(), now);
    }

    /**
     * A bucket's size and refill.
     *
     * @param burst the most it holds
     * @param refillPerMinute what it earns a minute (DICT's policies are per minute)
     */
    public record Limits(long burst, double refillPerMinute) {
        public Limits {
            Check.that(burst >= 1 && burst <= 1_000_000_000L, "a burst in 1..10^9: %d", burst);
            Check.that(
                    refillPerMinute > 0 && refillPerMinute <= 1_000_000_000.0,
                    "a refill in (0, 10^9] a minute: %s",
                    refillPerMinute);
        }
    }

    /** The level at {@code now}: refilled for the time since, never above the burst; a clock gone back adds nothing. */
    public TokenBucket at(Instant now, Limits limits) {
        if (!now.isAfter(at)) {
            return new TokenBucket(Math.min(tokens, limits.burst()), at);
        }
        double earned = limits.refillPerMinute() * Duration.between(at, now).toNanos() / 60e9;
        return new TokenBucket(Math.min(limits.burst(), tokens + earned), now);
    }

    /** Takes {@code cost}, into debt if need be. */
    public TokenBucket take(double cost) {
        Check.that(cost >= 0, "a cost is not negative");
        return new TokenBucket(tokens - cost, at);
    }

    /** Gives {@code tokens} back, never above the burst. */
    public TokenBucket giveBack(double given, Limits limits) {
        Check.that(given >= 0, "what is given back is not negative");
        return new TokenBucket(Math.min(limits.burst(), tokens + given), at);
    }

    /** Whole seconds until the level is at least {@code needed} (at least 1): a refusal's Retry-After. */
    public long secondsUntil(double needed, Limits limits) {
        double missing = needed - tokens;
        if (missing <= 0) {
            return 1;
        }
        return Math.max(1, (long) Math.ceil(missing * 60.0 / limits.refillPerMinute()));
    }
}
