package io.pagora.local.bench;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.local.load.LookupLoad;
import io.pagora.local.measure.ProcessCpu;
import io.pagora.local.tls.LocalTls;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code bench --mode=lookup}: key look-ups only, no payment, at a constant offered rate, and what they cost — the
 * platform's CPU per look-up found, each component's share, the calls' latency. Every look-up asks for a seeded
 * customer's key, so each should find it: a refusal or a missing answer in the window makes the run invalid, as does
 * finding fewer than 95 % of the offered look-ups. No money moves, so the money checks have nothing to check; the
 * window still holds a checkpoint, as the payments' bench's does, so PostgreSQL's writes are paid in it.
 */
final class LookupBench {

    /** What the run is asked: its rate, its calls' size, and how many end users the look-ups are made for. */
    record Settings(
            double ratePerSecond,
            int batchSize,
            int warmupSeconds,
            int windowSeconds,
            int endUsers,
            int inFlightMax,
            String ledger,
            Map<String, Long> components) {
        Settings {
            Check.that(ratePerSecond > 0 && ratePerSecond <= 1_000_000, "a look-up rate in (0, 10^6]");
            Check.that(warmupSeconds >= 0 && windowSeconds >= 10, "warm-up >= 0 s, window >= 10 s");
        }
    }

    /** The share of the offered rate that must be found for the run to hold. */
    static final double FOUND_SHARE_MIN = 0.95;

    private LookupBench() {}

    static int run(
            Settings settings,
            List<URI> apis,
            LocalTls tls,
            List<Id128> customers,
            Path outDir,
            DataSource database,
            ProcessCpu cpu)
            throws Exception {
        try (LookupLoad load = new LookupLoad(
                apis, tls, customers, settings.batchSize(), settings.inFlightMax(), settings.endUsers())) {
            long start = System.nanoTime();
            long windowStart = start + settings.warmupSeconds() * 1_000_000_000L;
            long windowEnd = windowStart + settings.windowSeconds() * 1_000_000_000L;
            load.measure(windowStart, windowEnd);
            Bench.say(String.format(
                    Locale.ROOT,
                    "look-ups at %.0f/s (%s), for %d end users: %d s warm-up, then a %d s window",
                    settings.ratePerSecond(),
                    settings.batchSize() == 1
                            ? "one a call, POST /directory/lookups"
                            : settings.batchSize() + " a call, POST /directory/lookups/batch",
                    settings.endUsers(),
                    settings.warmupSeconds(),
                    settings.windowSeconds()));
            Thread sender = Thread.ofPlatform()
                    .name("bench-lookups")
                    .start(() -> load.offer(settings.ratePerSecond(), windowEnd));
            Bench.sleepUntil(windowStart);
            Map<String, Double> cpu0 = cpu.seconds(settings.components());
            long wall0 = System.nanoTime();
            Bench.sleepUntil(windowStart + settings.windowSeconds() * 500_000_000L);
            Bench.Checkpoint checkpoint =
                    Bench.Checkpoint.start(database, settings.warmupSeconds() + settings.windowSeconds() / 2);
            Bench.sleepUntil(windowEnd);
            Map<String, Double> cpu1 = cpu.seconds(settings.components());
            long wall1 = System.nanoTime();
            sender.join();
            boolean answered = load.awaitAnswers(Duration.ofSeconds(60));
            LookupLoad.Tally tally = load.window();

            double windowSeconds = (wall1 - wall0) / 1e9;
            Map<String, Double> cpuSeconds = new LinkedHashMap<>();
            cpu1.forEach((name, seconds) -> cpuSeconds.put(name, seconds - cpu0.getOrDefault(name, 0.0)));
            PlatformCpu perLookup = PlatformCpu.of(settings.ledger(), cpuSeconds, tally.found());
            double foundPerS = tally.found() / windowSeconds;
            List<String> failures = new ArrayList<>();
            if (foundPerS < FOUND_SHARE_MIN * settings.ratePerSecond()) {
                failures.add(String.format(
                        Locale.ROOT,
                        "%.0f look-ups found a second, under %.0f %% of the %.0f offered",
                        foundPerS,
                        100 * FOUND_SHARE_MIN,
                        settings.ratePerSecond()));
            }
            if (tally.refused() > 0) {
                failures.add(tally.refused() + " look-ups refused in the window: " + tally.refusedByType());
            }
            if (tally.unanswered() > 0 || tally.dropped() > 0 || !answered) {
                failures.add(tally.unanswered() + " look-ups unanswered and " + tally.dropped()
                        + " not sent (the load's in-flight bound) in the window");
            }
            checkpoint.await().ifPresent(failures::add);

            double[] callMs = tally.callMs();
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("mode", "lookup");
            json.put("ledger", settings.ledger());
            json.put("offered_lookups_per_s", settings.ratePerSecond());
            json.put("lookups_per_call", settings.batchSize());
            json.put("end_users", settings.endUsers());
            json.put("window_s", windowSeconds);
            json.put("found_per_s", foundPerS);
            json.put("found", tally.found());
            json.put("refused", tally.refused());
            json.put("refused_by_type", tally.refusedByType());
            json.put("unanswered", tally.unanswered());
            json.put("dropped", tally.dropped());
            json.put("call_p50_ms", Bench.percentile(callMs, 50));
            json.put("call_p99_ms", Bench.percentile(callMs, 99));
            json.put("cpu_us_per_lookup", perLookup.platformUs());
            json.put("cpu_us_per_lookup_by_component", perLookup.usByComponent());
            json.put("cpu_share_by_component", perLookup.sharePercentByComponent());
            json.put("bank_simulator_cpu_us_per_lookup", perLookup.bankSimulatorUs());
            json.put("valid", failures.isEmpty());
            json.put("failures", failures);
            JsonMapper.builder()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .build()
                    .writeValue(outDir.resolve("result.json").toFile(), json);
            table(settings, foundPerS, tally, callMs, perLookup, failures).forEach(System.out::println);
            return failures.isEmpty() ? 0 : 1;
        }
    }

    static List<String> table(
            Settings settings,
            double foundPerS,
            LookupLoad.Tally tally,
            double[] callMs,
            PlatformCpu perLookup,
            List<String> failures) {
        List<String> lines = new ArrayList<>();
        lines.add("==================== Pagora bench: look-ups ====================");
        lines.add(String.format(
                Locale.ROOT,
                "  offered %.0f look-ups/s, %d a call; found %.1f/s (%d), refused %d, unanswered %d, not sent %d",
                settings.ratePerSecond(),
                settings.batchSize(),
                foundPerS,
                tally.found(),
                tally.refused(),
                tally.unanswered(),
                tally.dropped()));
        lines.add(String.format(
                Locale.ROOT,
                "  call latency p50 %.1f ms, p99 %.1f ms",
                Bench.percentile(callMs, 50),
                Bench.percentile(callMs, 99)));
        lines.add(String.format(Locale.ROOT, "  platform CPU per look-up found: %.1f µs", perLookup.platformUs()));
        Map<String, Double> shares = perLookup.sharePercentByComponent();
        perLookup
                .usByComponent()
                .forEach((name, us) -> lines.add(String.format(
                        Locale.ROOT, "    %-22s %8.1f µs  %5.1f %%", name, us, shares.getOrDefault(name, 0.0))));
        lines.add("  valid: " + failures.isEmpty() + (failures.isEmpty() ? "" : " — " + String.join("; ", failures)));
        lines.add("================================================================");
        return lines;
    }
}
