package io.pagora.payments.api.config;

import io.pagora.kernel.Check;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Liquidity alerts, {@code pagora.liquidity.*} (docs/operations.md).
 *
 * @param readInterval how often every watched bank's reserve is read (one ledger request per 8,189 banks): the
 *     longest an alert waits after its crossing, plus the stream's own delay
 */
@ConfigurationProperties("pagora.liquidity")
public record LiquidityProperties(@DefaultValue("1s") Duration readInterval) {

    static final Duration READ_INTERVAL_MIN = Duration.ofMillis(100);
    static final Duration READ_INTERVAL_MAX = Duration.ofMinutes(10);

    public LiquidityProperties {
        Check.that(
                readInterval.compareTo(READ_INTERVAL_MIN) >= 0 && readInterval.compareTo(READ_INTERVAL_MAX) <= 0,
                "pagora.liquidity.read-interval in [%s, %s]: %s",
                READ_INTERVAL_MIN,
                READ_INTERVAL_MAX,
                readInterval);
    }
}
