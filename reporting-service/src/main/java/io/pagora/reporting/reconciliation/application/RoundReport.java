package io.pagora.reporting.reconciliation.application;

import io.pagora.reporting.reconciliation.domain.Mismatch;
import io.pagora.reporting.reconciliation.domain.MismatchKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What one reconciliation round found. {@code mismatches} keeps the first {@code detailsMax} of them (a
 * broken platform must be reported, not fill the heap); {@code mismatchCounts} counts them all.
 *
 * @param paymentsCheckedThrough every payment accepted before this instant has been judged
 * @param paymentsCaughtUp false when the round stopped at its lookup bound with payments left to judge
 */
public record RoundReport(long paymentsChecked, long accountsChecked, long accountsDeferred,
        Map<MismatchKind, Long> mismatchCounts, List<Mismatch> mismatches, Instant paymentsCheckedThrough,
        boolean paymentsCaughtUp) {

    public long mismatchTotal() {
        return mismatchCounts.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Collects one round's counts. Not thread-safe: a round runs on one thread. */
    static final class Builder {
        private final int detailsMax;
        long paymentsChecked;
        long accountsChecked;
        long accountsDeferred;
        Instant paymentsCheckedThrough = Instant.EPOCH;
        boolean paymentsCaughtUp;
        private final Map<MismatchKind, Long> counts = new EnumMap<>(MismatchKind.class);
        private final List<Mismatch> details = new ArrayList<>();

        Builder(int detailsMax) {
            this.detailsMax = detailsMax;
        }

        void mismatch(Mismatch mismatch) {
            counts.merge(mismatch.kind(), 1L, Long::sum);
            if (details.size() < detailsMax) {
                details.add(mismatch);
            }
        }

        RoundReport build() {
            return new RoundReport(paymentsChecked, accountsChecked, accountsDeferred, Map.copyOf(counts),
                    List.copyOf(details), paymentsCheckedThrough, paymentsCaughtUp);
        }
    }
}
