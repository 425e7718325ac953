package io.pagora.payments.api.config;

import io.pagora.kernel.Check;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Returns (devoluções), {@code pagora.payments.returns.*}.
 *
 * @param window how long after it settled a payment may be returned (PIX: 90 days)
 */
@ConfigurationProperties("pagora.payments.returns")
public record ReturnProperties(@DefaultValue("90d") Duration window) {

    /** Ten years: a bound, far beyond any scheme's window. */
    static final Duration WINDOW_MAX = Duration.ofDays(3_650);

    public ReturnProperties {
        Check.that(
                !window.isNegative() && !window.isZero() && window.compareTo(WINDOW_MAX) <= 0,
                "pagora.payments.returns.window in (0, %s]: %s",
                WINDOW_MAX,
                window);
    }
}
