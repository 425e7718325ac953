package io.pagora.payments.api.domain.liquidity;

import io.pagora.kernel.Check;

/**
 * A bank's liquidity watermarks, in centavos of its reserve's available balance: an alert the first time the balance
 * falls below {@code low}, and none again until it has recovered above {@code high}. The gap between them is what
 * keeps a balance that hovers at the line from alerting on every payment.
 */
public record Watermarks(long lowCentavos, long highCentavos) {

    /** 10^15 centavos (R$ 10 trillion): above any reserve a PIX participant holds. */
    public static final long CENTAVOS_MAX = 1_000_000_000_000_000L;

    public Watermarks {
        Check.that(lowCentavos >= 1 && lowCentavos <= CENTAVOS_MAX, "a low watermark in 1..10^15: %d", lowCentavos);
        Check.that(
                highCentavos > lowCentavos && highCentavos <= CENTAVOS_MAX,
                "a high watermark above the low one (%d), at most 10^15: %d",
                lowCentavos,
                highCentavos);
    }
}
