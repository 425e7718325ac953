package io.pagora.payments.api.application.administration;

import io.pagora.kernel.Check;
import io.pagora.payments.api.application.limits.UnknownAccountLimit;
import java.security.SecureRandom;
import java.util.random.RandomGenerator;

/**
 * Account numbers drawn uniformly at random from [{@value #FLOOR}, {@value #CEILING}] (2^40 .. 2^53 - 1, about
 * 9 * 10^15 numbers), so that no bank can guess another bank's customers: a sequence hands out
 * neighbours, and a bank that learns one number learns the others. A guess hits one of a bank's N customers with
 * probability N / 9 * 10^15 (one in 900 million for ten million customers), and the answers that tell a hit from
 * a miss are rate-limited per participant ({@link UnknownAccountLimit}).
 *
 * <p>The floor keeps allocations apart from the numbers banks choose themselves (customer 1, 2, ... 50 of a demo
 * seed, 1001 in the README): those never make an allocation collide. The ceiling keeps every number exact in
 * every JSON reader (JavaScript's numbers, k6's). Two allocations colliding is as unlikely as a guess; the ledger
 * is the judge (an existing account answers {@code exists}) and the caller draws again, a bounded number of times.
 * The account id itself stays deterministic: bank and number ({@code ChartOfAccounts.customer}).
 */
public final class RandomAccountNumbers implements AccountNumbers {

    public static final long FLOOR = 1L << 40;
    public static final long CEILING = (1L << 53) - 1;

    private final RandomGenerator random;

    public RandomAccountNumbers() {
        this(new SecureRandom());
    }

    RandomAccountNumbers(RandomGenerator random) {
        this.random = random;
    }

    @Override
    public long next() {
        long number = random.nextLong(FLOOR, CEILING + 1);
        Check.that(number >= FLOOR && number <= CEILING, "an allocated number in range: %d", number);
        return number;
    }
}
