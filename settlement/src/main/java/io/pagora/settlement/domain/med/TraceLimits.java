package io.pagora.settlement.domain.med;

import io.pagora.kernel.Check;
import io.pagora.ledger.port.Ledger;

/**
 * How far a trace follows the money (docs/med.md): at most {@code hopsMax} transfers away from the first receiving
 * account, {@code accountsMax} accounts in all, and the first {@code outflowsPerAccountMax} of each account's
 * transfers after the money arrived (one ledger page).
 */
public record TraceLimits(int hopsMax, int accountsMax, int outflowsPerAccountMax) {

    public static final int HOPS_MAX = 5;

    /** So that one hop's landing legs (two per outflow) fit one ledger request: 64 accounts × 63 × 2 ≤ 8,189. */
    public static final int OUTFLOWS_PER_ACCOUNT_MAX = Ledger.BATCH_SIZE_MAX / (2 * HoldIds.POSITIONS_MAX);

    public TraceLimits {
        Check.that(hopsMax >= 0 && hopsMax <= HOPS_MAX, "hops in 0..%d: %d", HOPS_MAX, hopsMax);
        Check.that(
                accountsMax >= 1 && accountsMax <= HoldIds.POSITIONS_MAX,
                "accounts in 1..%d: %d",
                HoldIds.POSITIONS_MAX,
                accountsMax);
        Check.that(
                outflowsPerAccountMax >= 1 && outflowsPerAccountMax <= OUTFLOWS_PER_ACCOUNT_MAX,
                "outflows per account in 1..%d: %d",
                OUTFLOWS_PER_ACCOUNT_MAX,
                outflowsPerAccountMax);
    }
}
