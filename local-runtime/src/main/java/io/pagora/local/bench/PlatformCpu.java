package io.pagora.local.bench;

import io.pagora.kernel.Check;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * One step's CPU per settled payment as the bench reports it: each platform component's, their sum (the platform's),
 * each one's share of that sum, and the platform's over TigerBeetle's own: the figure the project steers by, because
 * it holds across machines and days where the absolute µs do not (docs/performance.md). The platform is every
 * component measured but the bank simulator, which stands for the banks and is reported apart; the load generator
 * is not among the components at all.
 *
 * @param usByComponent the platform's components in the order measured, µs per settled payment
 * @param ledgerUs TigerBeetle's µs per settled payment (every replica's), empty on the PostgreSQL ledger or when no
 *     TigerBeetle process was measured
 */
record PlatformCpu(
        Map<String, Double> usByComponent, double platformUs, double bankSimulatorUs, OptionalDouble ledgerUs) {

    /** The ledger setting, and the first replica's component name ({@code tigerbeetle-2}, ... are the others). */
    static final String TIGERBEETLE = "tigerbeetle";

    static final int COMPONENTS_MAX = 64;

    PlatformCpu {
        Check.that(usByComponent.size() <= COMPONENTS_MAX, "at most %d components", COMPONENTS_MAX);
        // Not checked for sign: a component that died in the window counts 0 at its end, so less than at its start.
        Check.that(Double.isFinite(platformUs), "the platform's CPU is a number");
    }

    /**
     * From each component's CPU seconds over the window and the payments settled in it (none counts as one, as the
     * bench always has: a figure per payment of an empty window is the window's CPU).
     */
    static PlatformCpu of(String ledger, Map<String, Double> cpuSeconds, long settled) {
        Check.that(settled >= 0, "settled payments are not negative");
        Check.that(cpuSeconds.size() <= COMPONENTS_MAX + 1, "at most %d components", COMPONENTS_MAX);
        long payments = Math.max(1, settled);
        Map<String, Double> usByComponent = new LinkedHashMap<>();
        double platformUs = 0;
        double bankSimulatorUs = 0;
        double tigerBeetleUs = 0;
        boolean tigerBeetleMeasured = false;
        for (Map.Entry<String, Double> entry : cpuSeconds.entrySet()) {
            double us = entry.getValue() * 1e6 / payments;
            if (entry.getKey().equals(Bench.BANK_SIMULATOR)) {
                bankSimulatorUs = us;
                continue;
            }
            usByComponent.put(entry.getKey(), us);
            platformUs += us;
            if (isTigerBeetle(entry.getKey())) {
                tigerBeetleUs += us;
                tigerBeetleMeasured = true;
            }
        }
        // On the PostgreSQL ledger the ledger is PostgreSQL itself, whose CPU also serves the read model and the
        // idempotency keys: no share of it is the ledger's alone, so there is no ledger figure to divide by.
        OptionalDouble ledgerUs = ledger.equals(TIGERBEETLE) && tigerBeetleMeasured
                ? OptionalDouble.of(tigerBeetleUs)
                : OptionalDouble.empty();
        return new PlatformCpu(Collections.unmodifiableMap(usByComponent), platformUs, bankSimulatorUs, ledgerUs);
    }

    /** A TigerBeetle replica's component: {@code tigerbeetle}, {@code tigerbeetle-2}, ... */
    static boolean isTigerBeetle(String component) {
        return component.equals(TIGERBEETLE) || component.matches(TIGERBEETLE + "-[0-9]+");
    }

    /**
     * The platform's CPU per settled payment over TigerBeetle's: empty where there is no TigerBeetle figure, and when
     * TigerBeetle spent no CPU that {@code /proc} could see (under a 10 ms tick): a quotient of nothing is no figure,
     * and JSON has no Infinity.
     */
    OptionalDouble platformToLedgerRatio() {
        if (ledgerUs.isEmpty() || !(ledgerUs.getAsDouble() > 0)) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(platformUs / ledgerUs.getAsDouble());
    }

    /** Each component's share of the platform's CPU, in %; empty when the platform spent none. */
    Map<String, Double> sharePercentByComponent() {
        Map<String, Double> shares = new LinkedHashMap<>();
        if (platformUs > 0) {
            usByComponent.forEach((name, us) -> shares.put(name, 100 * us / platformUs));
        }
        return shares;
    }

    /** The ratio as the table and the pages print it: {@code 10.45×}, or {@code –} where there is none. */
    static String ratioText(OptionalDouble ratio) {
        return ratio.isPresent() ? String.format(Locale.ROOT, "%.2f×", ratio.getAsDouble()) : "–";
    }
}
