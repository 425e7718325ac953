package io.pagora.payments.api.config;

import io.pagora.kernel.Check;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The per-participant limit on answers that another bank's account does not exist
 * ({@code pagora.payments.unknown-account-limit.*}; {@code UnknownAccountLimit}). A bank sending honest payments
 * meets an unknown payee rarely (a typo, a closed account); one listing accounts meets it on nearly every try.
 *
 * @param burst unknown-account answers a participant may get at once
 * @param refillPerSecond answers added back per second (1: 86,400 a day, against numbers drawn from 9 * 10^15)
 * @param participantsMax participants tracked at most, never forgotten (a bank past it is refused: fail closed)
 */
@ConfigurationProperties("pagora.payments.unknown-account-limit")
public record UnknownAccountLimitProperties(
        @DefaultValue("100") int burst,
        @DefaultValue("1") double refillPerSecond,
        @DefaultValue("10000") int participantsMax) {

    public UnknownAccountLimitProperties {
        Check.that(burst >= 1 && burst <= 1_000_000, "pagora.payments.unknown-account-limit.burst in 1..1000000");
        Check.that(
                refillPerSecond > 0 && refillPerSecond <= 1_000_000,
                "pagora.payments.unknown-account-limit.refill-per-second in (0, 1000000]");
        Check.that(
                participantsMax >= 1 && participantsMax <= 1_000_000,
                "pagora.payments.unknown-account-limit.participants-max in 1..1000000");
    }
}
