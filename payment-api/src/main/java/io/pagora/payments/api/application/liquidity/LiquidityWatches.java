package io.pagora.payments.api.application.liquidity;

import io.pagora.payments.api.domain.liquidity.ReserveWatch;
import io.pagora.payments.api.domain.liquidity.Watermarks;
import io.pagora.settlement.domain.BankId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The banks' watermarks and watches, shared by every payment-api instance. */
public interface LiquidityWatches {

    /** The watched banks after {@code afterIspb} (-1: from the first), by ISPB, at most {@code limit}. */
    List<WatchedReserve> page(int afterIspb, int limit);

    Optional<WatchedReserve> of(BankId bank);

    /** Sets {@code bank}'s watermarks; a bank watched for the first time starts armed at {@code at}. */
    WatchedReserve setWatermarks(BankId bank, Watermarks marks, Instant at);

    /**
     * Records {@code crossing} into {@code to} if the bank's watch is still at {@code from.sequence()} with
     * {@code from}'s watermarks: false when another instance recorded one first, or the watermarks changed since the
     * reading (then it is stale and records nothing).
     */
    boolean cross(WatchedReserve from, ReserveWatch to, ReserveWatch.Crossing crossing, long availableCentavos);

    /** The bank's crossings up to {@code sequence} are delivered. */
    void told(BankId bank, long sequence);
}
