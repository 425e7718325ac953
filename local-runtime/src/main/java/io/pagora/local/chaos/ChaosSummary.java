package io.pagora.local.chaos;

import io.pagora.kernel.Check;
import java.time.Duration;
import java.util.Locale;

/**
 * The verdict of one chaos scenario, printed as one line. It passes only when the platform took the load it was
 * offered (at least {@link #ACCEPTED_SHARE_MIN} of it) and settled a good share of it ({@link #SETTLED_SHARE_MIN}),
 * no payment the load
 * generator was told is accepted is lost, none got two final states, the platform recovered (every
 * payment accepted by the end of the fault became final within the wait), and every money invariant holds.
 *
 * @param offered payments the load generator offered while no fault was injected (its rate times the seconds of
 *     load before and after the fault): the load the platform must have taken, see {@link #ACCEPTED_SHARE_MIN}
 * @param accepted distinct payment ids the load generator got a 2xx for during the scenario
 * @param finalCount of those, the ones in a final state in the read model at the end
 * @param settled of those, the ones SETTLED: the load exercised settlement, not only refusals (see
 *     {@link #SETTLED_SHARE_MIN})
 * @param lost accepted, but missing from the read model or not final at the end of the wait
 * @param duplicated payments with more than one distinct final state (outcomes topic)
 * @param fault from the fault's injection until it ended (a killed service's restart included): with
 *     {@code recovery}, what the platform's users felt. Printed beside recovery because recovery alone rewards a
 *     slow restart (a consumer group's dead member times out during it)
 * @param recovery from the fault's end until every payment accepted by then was final; null if that never happened
 * @param degradedSeconds seconds from the fault's start to the load's end during which settled/s stayed below half
 *     its steady value before the fault ({@link SettledRate}); -1 when there was no steady value to compare with
 * @param invariantsPassed of {@code invariantsTotal} money checks (the demo report's four)
 * @param deadLettered records in the dead-letter topics so far (the whole run, poison included)
 */
public record ChaosSummary(
        String scenario,
        String ledger,
        long offered,
        int accepted,
        int finalCount,
        int settled,
        int lost,
        int duplicated,
        Duration fault,
        Duration recovery,
        int degradedSeconds,
        int invariantsPassed,
        int invariantsTotal,
        long deadLettered) {

    /**
     * The share of the offered load (outside the fault) that must have been accepted. Half, not all: around a fault
     * a just-restarted service answers slowly, k6 drops iterations while its VUs wait, and a service killed or a
     * broker stopped refuses payments until it is back (the fault's own seconds are not offered at all). Far below
     * half means the load did not reach the platform (k6's setup failed, wrong URL or no TLS: once every scenario
     * passed with accepted=0), and a scenario that judged no work is no evidence: it fails.
     */
    static final double ACCEPTED_SHARE_MIN = 0.5;

    /**
     * The share of the accepted payments that must have settled. The chaos platform is funded for the whole run and
     * its simulated banks accept most payments, so most settle; a slow bank's answers that arrive after the pending
     * timeout expire on purpose. Once a run's payments were nearly all refused for funds (the demo's deliberately poor
     * seeding): a scenario whose load never reached the post path tested reservations and refusals only.
     */
    static final double SETTLED_SHARE_MIN = 0.25;

    public ChaosSummary {
        Check.that(offered >= 0, "offered %d", offered);
        Check.that(!fault.isNegative(), "fault %s", fault);
        Check.that(finalCount + lost == accepted, "final %d + lost %d = accepted %d", finalCount, lost, accepted);
        Check.that(settled >= 0 && settled <= finalCount, "settled %d of %d final", settled, finalCount);
        Check.that(
                invariantsPassed >= 0 && invariantsPassed <= invariantsTotal,
                "invariants %d of %d",
                invariantsPassed,
                invariantsTotal);
    }

    /** The load was taken: something offered, and at least {@link #ACCEPTED_SHARE_MIN} of it accepted. */
    boolean loadAccepted() {
        return offered > 0 && accepted > 0 && accepted >= Math.ceil(offered * ACCEPTED_SHARE_MIN);
    }

    /** Enough of the accepted load settled (see {@link #SETTLED_SHARE_MIN}). */
    boolean loadSettled() {
        return settled > 0 && settled >= Math.ceil(accepted * SETTLED_SHARE_MIN);
    }

    boolean passed() {
        return loadAccepted()
                && loadSettled()
                && lost == 0
                && duplicated == 0
                && recovery != null
                && invariantsPassed == invariantsTotal
                && invariantsTotal > 0;
    }

    String line() {
        String recovered = recovery == null ? "never" : seconds(recovery);
        return String.format(
                Locale.ROOT,
                "CHAOS %-22s ledger=%-11s offered=%d accepted=%d final=%d settled=%d lost=%d duplicated=%d fault=%s "
                        + "recovery=%s degraded=%s invariants=%d/%d dead-lettered=%d %s",
                scenario,
                ledger,
                offered,
                accepted,
                finalCount,
                settled,
                lost,
                duplicated,
                seconds(fault),
                recovered,
                degradedSeconds < 0 ? "n/a" : degradedSeconds + "s",
                invariantsPassed,
                invariantsTotal,
                deadLettered,
                passed() ? "PASS" : "FAIL");
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1fs", duration.toMillis() / 1000.0);
    }
}
