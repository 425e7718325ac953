package io.pagora.payments.api.domain.liquidity;

import io.pagora.kernel.Check;

/**
 * A bank's liquidity watermarks, in centavos of its reserve's available balance: an alert the first time the balance
 * falls below {@code low}, and none again until it has recovered above {@code high}. The gap between them is what
 * keeps a balance that hovers at the line from alerting on every payment.
 */
public record Watermarks(long lowCentavos, long highCentavos) {

    /** Above what any reserve here may hold (the ledger's amounts are 128-bit; a watermark is a long). */
    public static final long CENTAVOS_MAX = 1_000_000_000_000_000L;

    public Watermarks {
        Check.that(lowCentavos >= 1 && lowCentavos <= CENTAVOS_MAX, "a low watermark in 1..10^18: %d", lowCentavos);
        Check.that(
                highCentavos > lowCentavos && highCentavos <= CENTAVOS_MAX,
                "a high watermark above the low one (%d), at most 10^18: %d",
                lowCentavos,
                highCentavos);
    }
}
