package io.pagora.local.bench;

import io.pagora.local.bench.Bench.Settings;
import io.pagora.local.bench.Bench.Step;
import io.pagora.local.load.LoadGenerator;
import io.pagora.local.measure.DiskUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.DoubleUnaryOperator;

/**
 * What a bench run says: {@code result.json} and the printed table, from the step it chose, the gate's
 * failures and the invariant checks' verdict. It measures nothing; {@link Bench} does.
 */
public final class BenchReport {

    private final Settings settings;
    private final Step step;
    private final List<String> failures;
    private final boolean invariantsPass;

    BenchReport(Settings settings, Step step, List<String> failures, boolean invariantsPass) {
        this.settings = settings;
        this.step = step;
        this.failures = failures;
        this.invariantsPass = invariantsPass;
    }

    /** {@code result.json}: the chosen step, the gate, the machine, and with find-max every step tried. */
    Map<String, Object> json(List<Step> steps) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("ledger", settings.ledger());
        json.put("mode", settings.mode().name().toLowerCase(Locale.ROOT));
        json.put("batch_size", settings.mode() == LoadGenerator.Mode.BULK ? settings.batchSize() : 1);
        json.put("offered_per_s", round(step.offeredPerS()));
        json.put("accepted_per_s", round(step.acceptedPerS()));
        json.put("settled_per_s", round(step.settledPerS()));
        json.put("accept_p50_ms", round(Bench.percentile(step.acceptMs(), 50)));
        json.put("accept_p99_ms", round(Bench.percentile(step.acceptMs(), 99)));
        json.put("accept_to_settled_p50_ms", round(step.acceptToSettledMs()[0]));
        json.put("accept_to_settled_p99_ms", round(step.acceptToSettledMs()[1]));
        json.put("read_model_lag_p99_ms", round(step.readModelLagP99Ms()));
        PlatformCpu cpu = step.cpuPerPayment(settings.ledger());
        json.put("cpu_us_per_payment", round(cpu.platformUs()));
        // null, not a number, where there is no figure: on the PostgreSQL ledger, or TigerBeetle at no CPU measured.
        json.put("ledger_cpu_us_per_payment", orNull(cpu.ledgerUs(), BenchReport::round));
        json.put("platform_to_ledger_cpu_ratio", orNull(cpu.platformToLedgerRatio(), BenchReport::round2));
        Map<String, Object> byComponent = new LinkedHashMap<>();
        cpu.usByComponent().forEach((name, us) -> byComponent.put(name, round(us)));
        json.put("cpu_us_per_payment_by_component", byComponent);
        Map<String, Object> shares = new LinkedHashMap<>();
        cpu.sharePercentByComponent().forEach((name, percent) -> shares.put(name, round(percent)));
        json.put("cpu_share_by_component", shares);
        json.put("bank_simulator_cpu_us_per_payment", round(cpu.bankSimulatorUs()));
        json.put("load_generator_cpu_share", round3(step.loadGeneratorCpuSeconds() / step.windowSeconds()));
        json.put("projected_settled_per_s_from_cpu", round(projectedRate(step)));
        json.put("valid", failures.isEmpty());
        json.put("invariants_pass", invariantsPass);
        json.put("gate_failures", failures);
        json.put("warmup_s", settings.warmupSeconds());
        json.put("window_s", round(step.windowSeconds()));
        json.put("settled_in_window", step.settledInWindow());
        json.put("backlog_at_window_end", step.backlogEnd());
        json.put("dropped", step.dropped());
        json.put("disk_bytes_per_payment", step.diskBytesPerPayment());
        json.put(
                "postgresql_checkpoint",
                Map.of(
                        "at_s",
                        step.checkpoint().atSecond,
                        "took_s",
                        round(step.checkpoint().seconds())));
        step.queries()
                .forEach((kind, figures) -> json.put("query_" + kind.name().toLowerCase(Locale.ROOT), figures.json()));
        json.put("machine", Map.of("cores", Runtime.getRuntime().availableProcessors(), "memory_mib", memoryMib()));
        if (settings.findMax()) {
            List<Map<String, Object>> stepJson = new ArrayList<>();
            for (Step s : steps) {
                PlatformCpu stepCpu = s.cpuPerPayment(settings.ledger());
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("offered_per_s", round(s.offeredPerS()));
                one.put("settled_per_s", round(s.settledPerS()));
                one.put("accept_p99_ms", round(Bench.percentile(s.acceptMs(), 99)));
                one.put("cpu_us_per_payment", round(stepCpu.platformUs()));
                one.put("ledger_cpu_us_per_payment", orNull(stepCpu.ledgerUs(), BenchReport::round));
                one.put("platform_to_ledger_cpu_ratio", orNull(stepCpu.platformToLedgerRatio(), BenchReport::round2));
                one.put("valid", s.valid());
                one.put("gate_failures", s.gateFailures());
                stepJson.add(one);
            }
            json.put("find_max_steps", stepJson);
        }
        json.put("finished_at", Instant.now().toString());
        json.put("timeline", step.timeline());
        return json;
    }

    /** What the platform could settle on this machine's cores if the load generator took none of them. */
    private double projectedRate(Step step) {
        double us = step.cpuPerPayment(settings.ledger()).platformUs();
        return us <= 0 ? 0 : Runtime.getRuntime().availableProcessors() * 1e6 / us;
    }

    /** The table printed at the end of a run; with find-max, every step tried after it. */
    List<String> table(List<Step> steps) {
        List<String> out = new ArrayList<>();
        out.add("==================== Pagora bench ====================");
        out.add(String.format(
                Locale.ROOT,
                "ledger %s, %s mode%s, %d s warm-up, %.0f s window; machine: %d cores, %d MiB",
                settings.ledger(),
                settings.mode().name().toLowerCase(Locale.ROOT),
                settings.mode() == LoadGenerator.Mode.BULK ? " (" + settings.batchSize() + " per call)" : "",
                settings.warmupSeconds(),
                step.windowSeconds(),
                Runtime.getRuntime().availableProcessors(),
                memoryMib()));
        out.add(String.format(Locale.ROOT, "  offered            %9.0f payments/s", step.offeredPerS()));
        out.add(String.format(Locale.ROOT, "  accepted           %9.0f /s", step.acceptedPerS()));
        out.add(String.format(
                Locale.ROOT,
                "  settled            %9.0f /s  (%d in the window)",
                step.settledPerS(),
                step.settledInWindow()));
        out.add(String.format(
                Locale.ROOT,
                "  accept             p50 %8.1f ms   p99 %8.1f ms  (per %s call)",
                Bench.percentile(step.acceptMs(), 50),
                Bench.percentile(step.acceptMs(), 99),
                settings.mode() == LoadGenerator.Mode.BULK ? "batch" : "payment"));
        out.add(String.format(
                Locale.ROOT,
                "  accept→settled     p50 %8.1f ms   p99 %8.1f ms",
                step.acceptToSettledMs()[0],
                step.acceptToSettledMs()[1]));
        out.add(String.format(
                Locale.ROOT, "  read-model lag     p99 %8.1f ms  (settled → visible)", step.readModelLagP99Ms()));
        out.add(String.format(
                Locale.ROOT,
                "  backlog            %d at the window's end (first-quarter mean %.0f, last %.0f)",
                step.backlogEnd(),
                step.backlogFirstQuarter(),
                step.backlogLastQuarter()));
        out.add("  CPU per settled payment:");
        PlatformCpu cpu = step.cpuPerPayment(settings.ledger());
        Map<String, Double> shares = cpu.sharePercentByComponent();
        // The bank simulator is the banks' side, not the switch's: below, apart, like the load generator.
        cpu.usByComponent()
                .forEach((name, us) -> out.add(String.format(
                        Locale.ROOT,
                        "    %-20s %8.1f µs   (%.2f cores, %s of the platform)",
                        name,
                        us,
                        step.cpuSeconds().get(name) / step.windowSeconds(),
                        shares.containsKey(name) ? String.format(Locale.ROOT, "%.1f %%", shares.get(name)) : "–")));
        out.add(String.format(
                Locale.ROOT,
                "    %-20s %8.1f µs   (bank simulator and load generator excluded)",
                "PLATFORM TOTAL",
                cpu.platformUs()));
        out.add(ratioLine(cpu));
        if (step.cpuSeconds().containsKey(Bench.BANK_SIMULATOR)) {
            out.add(String.format(
                    Locale.ROOT,
                    "    %-20s %8.1f µs   (%.2f cores)",
                    "bank simulator",
                    cpu.bankSimulatorUs(),
                    step.cpuSeconds().get(Bench.BANK_SIMULATOR) / step.windowSeconds()));
        }
        out.add(String.format(
                Locale.ROOT,
                "    %-20s %8.1f µs   (%.1f%% of one core)",
                "load generator",
                step.loadGeneratorCpuSeconds() * 1e6 / Math.max(1, step.settledInWindow()),
                100 * step.loadGeneratorCpuSeconds() / step.windowSeconds()));
        if (!step.diskBytesPerPayment().isEmpty()) {
            out.add("  disk per settled payment (grown in the window):");
            step.diskBytesPerPayment()
                    .forEach((store, bytes) -> out.add(String.format(
                            Locale.ROOT,
                            "    %-20s %8.1f bytes%s",
                            store.equals("at_rest_total") ? "AT REST (WAL excl.)" : store,
                            bytes,
                            store.equals(DiskUsage.POSTGRESQL_WAL) ? "   (written, recycled after checkpoints)" : "")));
        }
        out.add(String.format(
                Locale.ROOT,
                "  checkpoint         forced at second %d (in the window), took %.1f s",
                step.checkpoint().atSecond,
                step.checkpoint().seconds()));
        step.queries()
                .forEach((kind, figures) -> out.add(String.format(
                        Locale.ROOT,
                        "  %-18s %s",
                        kind == QueryProbe.Kind.PAYMENT ? "GET /payments/{id}" : "GET statement",
                        figures.line())));
        out.add(String.format(
                Locale.ROOT,
                "  projected from CPU  %8.0f settled/s on %d cores if nothing else ran",
                projectedRate(step),
                Runtime.getRuntime().availableProcessors()));
        if (settings.findMax()) {
            out.add("  find-max, every step (the figures above: the highest that held, or the first if none did):");
            for (Step s : steps) {
                PlatformCpu stepCpu = s.cpuPerPayment(settings.ledger());
                out.add(String.format(
                        Locale.ROOT,
                        "    %8.0f/s offered %8.0f settled/s %8.1f µs  platform ÷ TigerBeetle %7s  %s",
                        s.offeredPerS(),
                        s.settledPerS(),
                        stepCpu.platformUs(),
                        PlatformCpu.ratioText(stepCpu.platformToLedgerRatio()),
                        s.valid() ? "held" : "broke"));
            }
        }
        out.add("  invariants         "
                + (invariantsPass ? "PASS (the four money checks, the key directory and the held funds)" : "FAIL"));
        out.add(failures.isEmpty() ? "RESULT: VALID" : "RESULT: INVALID -- " + String.join("; ", failures));
        out.add("======================================================");
        return out;
    }

    private static long memoryMib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (Exception e) {
            return -1;
        }
        return -1;
    }

    /** The table's line of the figure the project steers by, or why there is none. */
    static String ratioLine(PlatformCpu cpu) {
        String why;
        if (cpu.platformToLedgerRatio().isPresent()) {
            why = String.format(
                    Locale.ROOT,
                    "the platform's %.1f µs over TigerBeetle's own %.1f",
                    cpu.platformUs(),
                    cpu.ledgerUs().getAsDouble());
        } else if (cpu.ledgerUs().isPresent()) {
            why = "TigerBeetle spent no CPU /proc could measure: no figure";
        } else {
            why = "no TigerBeetle: on the PostgreSQL ledger the ledger is PostgreSQL itself";
        }
        return String.format(
                Locale.ROOT,
                "    %-22s %6s   (%s)",
                "platform ÷ TigerBeetle",
                PlatformCpu.ratioText(cpu.platformToLedgerRatio()),
                why);
    }

    /** A figure rounded as JSON holds it, or null where there is none (JSON has no NaN). */
    private static Double orNull(OptionalDouble value, DoubleUnaryOperator rounding) {
        return value.isPresent() ? rounding.applyAsDouble(value.getAsDouble()) : null;
    }

    static double round(double value) {
        return Double.isFinite(value) ? Math.round(value * 10) / 10.0 : -1;
    }

    private static double round2(double value) {
        return Math.round(value * 100) / 100.0;
    }

    private static double round3(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
