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
 * broken platform must be reported, not fill the heap); {@code mismatchCounts} counts them all. A round
 * whose step failed still reports everything judged before the failure ({@code failure} says what failed):
 * the cursors only moved past judged work.
 *
 * @param paymentsChecked payments judged: final in time (or STUCK), parties valid
 * @param paymentLegsChecked of those and of the payments an account mismatch pointed at, the ones whose post
 *     legs were looked up in the ledger
 * @param paymentsCheckedThrough every payment projected before this instant has been judged
 * @param paymentsCaughtUp false when the round stopped at its bound with payments left to judge, or was held
 *     by a payment not final in time
 * @param failure the step that threw and why; null when the round completed
 */
public record RoundReport(
        long paymentsChecked,
        long paymentLegsChecked,
        long accountsChecked,
        long accountsDeferred,
        Map<MismatchKind, Long> mismatchCounts,
        List<Mismatch> mismatches,
        Instant paymentsCheckedThrough,
        boolean paymentsCaughtUp,
        String failure) {

    public long mismatchTotal() {
        return mismatchCounts.values().stream().mapToLong(Long::longValue).sum();
    }

    public boolean failed() {
        return failure != null;
    }

    /** Collects one round's counts. Not thread-safe: a round runs on one thread. */
    static final class Builder {
        private final int detailsMax;
        long paymentsChecked;
        long paymentLegsChecked;
        long accountsChecked;
        long accountsDeferred;
        Instant paymentsCheckedThrough = Instant.EPOCH;
        boolean paymentsCaughtUp;
        String failure;
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

        void failed(String step, RuntimeException e) {
            String what = step + ": " + e;
            failure = failure == null ? what : failure + "; " + what;
        }

        RoundReport build() {
            return new RoundReport(
                    paymentsChecked,
                    paymentLegsChecked,
                    accountsChecked,
                    accountsDeferred,
                    Map.copyOf(counts),
                    List.copyOf(details),
                    paymentsCheckedThrough,
                    paymentsCaughtUp,
                    failure);
        }
    }
}
