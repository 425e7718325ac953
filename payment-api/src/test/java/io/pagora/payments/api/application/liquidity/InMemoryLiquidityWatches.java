package io.pagora.payments.api.application.liquidity;

import io.pagora.payments.api.domain.liquidity.ReserveWatch;
import io.pagora.payments.api.domain.liquidity.Watermarks;
import io.pagora.settlement.domain.BankId;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/** {@link LiquidityWatches} in memory, with the JDBC store's compare-and-set. */
final class InMemoryLiquidityWatches implements LiquidityWatches {

    private final TreeMap<Integer, WatchedReserve> rows = new TreeMap<>();

    @Override
    public synchronized List<WatchedReserve> page(int afterIspb, int limit) {
        return rows.tailMap(afterIspb, false).values().stream().limit(limit).toList();
    }

    @Override
    public synchronized Optional<WatchedReserve> of(BankId bank) {
        return Optional.ofNullable(rows.get(bank.ispb()));
    }

    @Override
    public synchronized WatchedReserve setWatermarks(BankId bank, Watermarks marks, Instant at) {
        WatchedReserve before = rows.get(bank.ispb());
        WatchedReserve now = before == null
                ? new WatchedReserve(bank, marks, ReserveWatch.armed(at), 0, 0, Optional.empty())
                : new WatchedReserve(bank, marks, before.watch(), before.sequence(), before.told(), before.last());
        rows.put(bank.ispb(), now);
        return now;
    }

    @Override
    public synchronized boolean cross(
            WatchedReserve from, ReserveWatch to, ReserveWatch.Crossing crossing, long availableCentavos) {
        WatchedReserve stored = rows.get(from.bank().ispb());
        if (stored == null
                || stored.sequence() != from.sequence()
                || !stored.marks().equals(from.marks())) {
            return false;
        }
        rows.put(
                from.bank().ispb(),
                new WatchedReserve(
                        from.bank(),
                        stored.marks(),
                        to,
                        stored.sequence() + 1,
                        stored.told(),
                        Optional.of(new WatchedReserve.Crossed(crossing, availableCentavos, from.marks()))));
        return true;
    }

    @Override
    public synchronized void told(BankId bank, long sequence) {
        WatchedReserve stored = rows.get(bank.ispb());
        if (stored.told() < sequence && stored.sequence() >= sequence) {
            rows.put(
                    bank.ispb(),
                    new WatchedReserve(
                            bank, stored.marks(), stored.watch(), stored.sequence(), sequence, stored.last()));
        }
    }
}
