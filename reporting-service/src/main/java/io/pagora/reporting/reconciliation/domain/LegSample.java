package io.pagora.reporting.reconciliation.domain;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.reporting.domain.Mix64;

/**
 * Which payments have their post legs looked up in the ledger: a deterministic {@code perMille} of payment
 * ids, chosen by a hash of the whole id (ids are time-ordered, so their low bits alone would not do). Every
 * payment's final state is still judged, and every account's balance against the projection's totals: a
 * wrong final state outside the sample moves a balance and shows there; the sample pins individual payments
 * (and a reported account points at its own). Deterministic so that a run can be repeated and a payment's
 * membership explained.
 */
public final class LegSample {

    public static final int PER_MILLE_ALL = 1_000;

    private final int perMille;

    public LegSample(int perMille) {
        Check.that(perMille >= 0 && perMille <= PER_MILLE_ALL, "a sample is 0..1000 per mille: %d", perMille);
        this.perMille = perMille;
    }

    public boolean includes(Id128 paymentId) {
        if (perMille == PER_MILLE_ALL) {
            return true;
        }
        return Long.remainderUnsigned(Mix64.mix(paymentId.hi() ^ Mix64.mix(paymentId.lo())), PER_MILLE_ALL) < perMille;
    }
}
