package io.pagora.local.bench;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.adapter.Ledgers;
import io.pagora.ledger.port.Ledger;
import io.pagora.local.chaos.ReconciliationWatch;
import io.pagora.local.demo.DemoReport;
import io.pagora.local.load.LoadGenerator;
import io.pagora.local.measure.ProcessCpu;
import io.pagora.local.readside.OutcomeLog;
import io.pagora.local.runfiles.DemoAccounts;
import io.pagora.local.tls.LocalTls;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.net.ssl.SSLContext;
import javax.sql.DataSource;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Overload, answered fairly ({@code bench --mode=single --overload}): one bank floods single {@code POST /payments} at
 * {@code overload-factor} times the rate given (the highest rate single mode holds, found with {@code --find-max})
 * while a second bank keeps paying at its normal rate. Two phases, each a warm-up and a measured window: the second
 * bank alone, then the same with the flood.
 *
 * <p>It is judged by payment-api's own account ({@link ParticipantCalls}: its {@code /actuator/prometheus}, read as the
 * monitor before and after each phase and its window), not by the load generator, which shares the machine's cores
 * with the flood and queues on them itself. It holds (exit 0) when: in the flood, every call payment-api read from
 * either bank was answered 202, 429 with {@code Retry-After} or 503 {@code outcome-unknown}; the flooding bank was
 * both accepted and refused 429 (the limit bit: a flood that was all accepted tested nothing); every call payment-api
 * read from the second bank was accepted in both phases, and its p99 answer time on the server (from the request read
 * to the answer written; from the histogram's buckets) in the flood's window is within
 * {@value #SECOND_BANK_P99_FACTOR_MAX}x its p99 in the window alone; after the drain every accepted payment is final,
 * and the demo report's invariant checks pass over both banks' answers. The generator's own figures (its calls that
 * found no room, the answers and latencies it saw, which include its own queueing) are printed and written apart,
 * for information: they fail nothing.
 *
 * <p>Over 400 lines on purpose: one overload run (two banks' load, the window, the gate, the drain) shares its
 * counters, as {@link Bench} does.
 */
public final class OverloadBench {

    static final double SECOND_BANK_P99_FACTOR_MAX = 2.0;

    record Settings(
            double holdingRate,
            double overloadFactor,
            double secondBankRate,
            int warmupSeconds,
            int windowSeconds,
            int drainSeconds,
            int inFlightMax) {

        Settings {
            Check.that(
                    holdingRate > 0 && overloadFactor > 1 && secondBankRate > 0,
                    "a positive holding rate, an overload factor above 1, a positive second-bank rate");
            Check.that(warmupSeconds >= 0 && windowSeconds >= 10, "warm-up >= 0 s, window >= 10 s");
        }

        double floodRate() {
            return holdingRate * overloadFactor;
        }
    }

    /**
     * One phase: the server's account of both banks' calls in the whole phase and of the second bank's in the window
     * ({@link ParticipantCalls}); what the generator saw (the second bank's latencies in the window, each bank's
     * answers by class, its calls that found no room); the platform's CPU and the load generator's own (it shares the
     * machine: a flood that costs the generator a core leaves the platform one) in the window.
     */
    record Phase(
            String name,
            ParticipantCalls floodServer,
            ParticipantCalls secondServer,
            ParticipantCalls secondWindow,
            double[] secondBankAcceptMs,
            Map<String, Long> floodAnswers,
            Map<String, Long> secondAnswers,
            long floodDropped,
            long secondDropped,
            Map<String, Double> cpuSeconds,
            double generatorCpuSeconds,
            double windowSeconds) {

        /** The second bank's p99 answer time on the server in the window, ms: the judged figure. */
        double secondServerP99Ms() {
            return secondWindow.percentileMs(99);
        }

        /** The second bank's p99 as the load generator saw it, ms: for information. */
        double secondClientP99Ms() {
            return Bench.percentile(secondBankAcceptMs, 99);
        }
    }

    private OverloadBench() {}

    static int run(
            Settings settings,
            URI api,
            LocalTls tls,
            Path accountsFile,
            Path outDir,
            DataSource database,
            Ledgers.Settings ledgerSettings,
            String bootstrapServers,
            Map<String, Long> components,
            ProcessCpu cpu)
            throws Exception {
        List<Id128> customers = new ArrayList<>(
                DemoAccounts.read(accountsFile).customerFundings().keySet());
        TreeSet<BankId> banks = new TreeSet<>((a, b) -> Integer.compare(a.ispb(), b.ispb()));
        customers.forEach(c -> banks.add(ChartOfAccounts.bankOf(c).orElseThrow()));
        Check.that(banks.size() >= 2, "an overload run needs two banks, the accounts have %d", banks.size());
        BankId flooding = banks.first();
        BankId second = banks.last();
        Path floodLog = outDir.resolve("flood.accepted.log");
        Path secondLog = outDir.resolve("second-bank.accepted.log");
        long finalBefore = Bench.finalCount(database);
        List<Phase> phases = new ArrayList<>();
        try (LoadGenerator flood = new LoadGenerator(
                        LoadGenerator.Mode.SINGLE,
                        1,
                        api,
                        tls,
                        customers,
                        Set.of(flooding),
                        floodLog,
                        settings.inFlightMax());
                LoadGenerator normal = new LoadGenerator(
                        LoadGenerator.Mode.SINGLE,
                        1,
                        api,
                        tls,
                        customers,
                        Set.of(second),
                        secondLog,
                        settings.inFlightMax())) {
            Bench.say(String.format(
                    Locale.ROOT,
                    "overload: bank %d floods at %.0f/s (%.1f x %.0f/s), bank %d pays at %.0f/s",
                    flooding.ispb(),
                    settings.floodRate(),
                    settings.overloadFactor(),
                    settings.holdingRate(),
                    second.ispb(),
                    settings.secondBankRate()));
            SSLContext monitor = tls.monitor();
            Scrape scrape = () -> ReconciliationWatch.fetchMetrics(api, monitor);
            phases.add(phase("second bank alone", settings, null, normal, components, cpu, scrape, flooding, second));
            phases.add(phase("with the flood", settings, flood, normal, components, cpu, scrape, flooding, second));
            flood.awaitAnswers();
            normal.awaitAnswers();
            boolean drained = Bench.drainAll(
                    database,
                    () -> flood.accepted() + normal.accepted(),
                    finalBefore,
                    settings.drainSeconds(),
                    bootstrapServers);
            DemoReport.Result report;
            try (Ledger ledger = Ledgers.open(ledgerSettings, () -> database)) {
                report = DemoReport.run(
                        new DemoReport.Inputs(accountsFile, List.of(floodLog, secondLog), null, "reporting"),
                        database,
                        ledger,
                        () -> OutcomeLog.read(bootstrapServers));
            }
            Files.write(outDir.resolve("report.txt"), report.lines());
            report.verdicts()
                    .forEach(v -> Bench.say(
                            String.format("  [%s] %s: %s", v.passed() ? "PASS" : "FAIL", v.name(), v.summary())));
            List<String> failures = failures(phases.get(0), phases.get(1));
            if (!drained) {
                failures.add("not every accepted payment was final, or the platform not quiet, "
                        + settings.drainSeconds() + " s after the load stopped");
            }
            if (!report.passed()) {
                failures.add("invariant checks failed (see report.txt)");
            }
            print(settings, flooding, second, phases, failures);
            JsonMapper mapper = JsonMapper.builder()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .build();
            mapper.writeValue(
                    outDir.resolve("result.json").toFile(), json(settings, flooding, second, phases, failures));
            return failures.isEmpty() ? 0 : 1;
        }
    }

    /** payment-api's metrics page, read as the monitor. */
    @FunctionalInterface
    interface Scrape {
        String metrics() throws Exception;
    }

    /** One phase: the second bank at its rate (and the flood, if given), a warm-up, then the measured window. */
    private static Phase phase(
            String name,
            Settings settings,
            LoadGenerator flood,
            LoadGenerator normal,
            Map<String, Long> components,
            ProcessCpu cpu,
            Scrape scrape,
            BankId flooding,
            BankId second)
            throws Exception {
        long start = System.nanoTime();
        long windowStart = start + settings.warmupSeconds() * 1_000_000_000L;
        long windowEnd = windowStart + settings.windowSeconds() * 1_000_000_000L;
        normal.measure(windowStart, windowEnd);
        Map<String, Long> floodBefore = flood == null ? Map.of() : flood.answerClasses();
        Map<String, Long> normalBefore = normal.answerClasses();
        long floodDropped0 = flood == null ? 0 : flood.dropped();
        long normalDropped0 = normal.dropped();
        String phaseStart = scrape.metrics();
        Bench.say(String.format(
                Locale.ROOT,
                "phase '%s': %d s warm-up, then a %d s window",
                name,
                settings.warmupSeconds(),
                settings.windowSeconds()));
        Thread normalSender = Thread.ofPlatform()
                .name("overload-second-bank")
                .start(() -> normal.offer(settings.secondBankRate(), windowEnd));
        Thread floodSender = flood == null
                ? null
                : Thread.ofPlatform().name("overload-flood").start(() -> flood.offer(settings.floodRate(), windowEnd));
        Bench.sleepUntil(windowStart);
        ParticipantCalls secondAtWindowStart = ParticipantCalls.of(scrape.metrics(), second);
        Map<String, Double> cpu0 = cpu.seconds(components);
        double generator0 = cpu.ownSeconds();
        long wall0 = System.nanoTime();
        Bench.sleepUntil(windowEnd);
        Map<String, Double> cpu1 = cpu.seconds(components);
        double generatorCpuSeconds = cpu.ownSeconds() - generator0;
        double windowSeconds = (System.nanoTime() - wall0) / 1e9;
        ParticipantCalls secondWindow =
                ParticipantCalls.of(scrape.metrics(), second).minus(secondAtWindowStart);
        normalSender.join();
        if (floodSender != null) {
            floodSender.join();
            flood.awaitAnswers();
        }
        normal.awaitAnswers();
        String phaseEnd = scrape.metrics();
        Map<String, Double> cpuSeconds = new LinkedHashMap<>();
        cpu1.forEach((component, seconds) -> cpuSeconds.put(component, seconds - cpu0.getOrDefault(component, 0.0)));
        return new Phase(
                name,
                flood == null
                        ? ParticipantCalls.NONE
                        : ParticipantCalls.of(phaseEnd, flooding).minus(ParticipantCalls.of(phaseStart, flooding)),
                ParticipantCalls.of(phaseEnd, second).minus(ParticipantCalls.of(phaseStart, second)),
                secondWindow,
                normal.takeWindowLatenciesMs(),
                flood == null ? Map.of() : minus(flood.answerClasses(), floodBefore),
                minus(normal.answerClasses(), normalBefore),
                flood == null ? 0 : flood.dropped() - floodDropped0,
                normal.dropped() - normalDropped0,
                cpuSeconds,
                generatorCpuSeconds,
                windowSeconds);
    }

    private static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
        Map<String, Long> delta = new LinkedHashMap<>();
        after.forEach((answer, count) -> {
            long d = count - before.getOrDefault(answer, 0L);
            if (d > 0) {
                delta.put(answer, d);
            }
        });
        return delta;
    }

    /** The gate (see the class comment), on payment-api's own account: empty when the run held. */
    static List<String> failures(Phase alone, Phase flooded) {
        List<String> failures = new ArrayList<>();
        unanswered("the flooding bank", flooded.floodServer(), failures);
        unanswered("the second bank", flooded.secondServer(), failures);
        if (flooded.floodServer().calls("202") == 0) {
            failures.add("the flooding bank had no payment accepted: nothing was measured");
        }
        if (flooded.floodServer().calls("429-retry-after") == 0) {
            failures.add("the flooding bank was never answered 429: the flood did not reach a limit");
        }
        for (Phase phase : List.of(alone, flooded)) {
            long calls = phase.secondServer().calls();
            long accepted = phase.secondServer().calls("202");
            if (calls == 0 || accepted != calls) {
                failures.add(String.format(
                        Locale.ROOT,
                        "%s: payment-api accepted %d of the %d calls it read from the" + " second bank (%s)%s",
                        phase.name(),
                        accepted,
                        calls,
                        phase.secondServer().callsByAnswer(),
                        calls == 0 ? "; no pagora_payments_participant_* series for it" : ""));
            }
        }
        double limit = alone.secondServerP99Ms() * SECOND_BANK_P99_FACTOR_MAX;
        if (!(flooded.secondServerP99Ms() <= limit)) {
            failures.add(String.format(
                    Locale.ROOT,
                    "the second bank's p99 answer time on the server %.2f ms with the"
                            + " flood is above %.0fx its %.2f ms alone",
                    flooded.secondServerP99Ms(),
                    SECOND_BANK_P99_FACTOR_MAX,
                    alone.secondServerP99Ms()));
        }
        return failures;
    }

    private static void unanswered(String who, ParticipantCalls server, List<String> failures) {
        Map<String, Long> wrong = server.notAnswered();
        if (!wrong.isEmpty()) {
            failures.add(who + ": payment-api answered calls it read other than 202, 429 with Retry-After or 503"
                    + " outcome-unknown: " + wrong);
        }
    }

    private static void print(
            Settings settings, BankId flooding, BankId second, List<Phase> phases, List<String> failures) {
        System.out.println(
                "==================== overload: one bank floods, another pays as usual ====================");
        System.out.printf(
                Locale.ROOT,
                "  flooding bank %d at %.0f/s (%.1f x %.0f/s held), second bank %d at %.0f/s%n",
                flooding.ispb(),
                settings.floodRate(),
                settings.overloadFactor(),
                settings.holdingRate(),
                second.ispb(),
                settings.secondBankRate());
        for (Phase phase : phases) {
            ParticipantCalls window = phase.secondWindow();
            System.out.printf(
                    Locale.ROOT,
                    "  %-18s second bank on the server: answer p50 %.2f ms, p99 %.2f ms (buckets),"
                            + " mean %.2f ms (exact), %d calls in the window%n",
                    phase.name(),
                    window.percentileMs(50),
                    phase.secondServerP99Ms(),
                    window.meanMs(),
                    window.timed());
            System.out.printf(
                    Locale.ROOT,
                    "  %-18s calls payment-api read: second bank %s%s%n",
                    "",
                    phase.secondServer().callsByAnswer(),
                    phase.floodAnswers().isEmpty() && phase.floodServer().calls() == 0
                            ? ""
                            : ", flooding bank " + phase.floodServer().callsByAnswer());
            double[] ms = phase.secondBankAcceptMs();
            System.out.printf(
                    Locale.ROOT,
                    "  %-18s for information, the load generator's view (its own queueing"
                            + " included): second bank p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d calls)%n",
                    "",
                    Bench.percentile(ms, 50),
                    phase.secondClientP99Ms(),
                    ms.length == 0 ? Double.NaN : ms[ms.length - 1],
                    ms.length);
            System.out.printf(
                    Locale.ROOT,
                    "  %-18s   answers seen: second bank %s, flooding bank %s%n",
                    "",
                    phase.secondAnswers(),
                    phase.floodAnswers());
            System.out.printf(
                    Locale.ROOT,
                    "  %-18s   calls the generator dropped (no room; never sent): second bank %d,"
                            + " flooding bank %d%n",
                    "",
                    phase.secondDropped(),
                    phase.floodDropped());
            System.out.printf(
                    Locale.ROOT,
                    "  %-18s platform CPU in the window: %.2f cores (%s)%n",
                    "",
                    phase.cpuSeconds().values().stream()
                                    .mapToDouble(Double::doubleValue)
                                    .sum()
                            / phase.windowSeconds(),
                    phase.cpuSeconds().entrySet().stream()
                            .map(e -> String.format(
                                    Locale.ROOT, "%s %.2f", e.getKey(), e.getValue() / phase.windowSeconds()))
                            .toList());
            System.out.printf(
                    Locale.ROOT,
                    "  %-18s load generator CPU in the window: %.2f cores%n",
                    "",
                    phase.generatorCpuSeconds() / phase.windowSeconds());
        }
        System.out.println(failures.isEmpty() ? "  HELD" : "  DID NOT HOLD: " + String.join("; ", failures));
    }

    private static Map<String, Object> json(
            Settings settings, BankId flooding, BankId second, List<Phase> phases, List<String> failures) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("mode", "single-overload");
        json.put("holding_rate_per_s", settings.holdingRate());
        json.put("flood_rate_per_s", settings.floodRate());
        json.put("second_bank_rate_per_s", settings.secondBankRate());
        json.put("flooding_bank", flooding.ispb());
        json.put("second_bank", second.ispb());
        json.put(
                "judged",
                "payment-api's own account: every call it read from either bank in the flood answered 202,"
                        + " 429 with Retry-After or 503 outcome-unknown; the second bank's p99 answer time on the server (request"
                        + " read to answer written; from histogram buckets, linear within a bucket) with the flood within "
                        + SECOND_BANK_P99_FACTOR_MAX
                        + "x alone; the load generator's view (its drops included) for information");
        List<Map<String, Object>> phaseJson = new ArrayList<>();
        for (Phase phase : phases) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("phase", phase.name());
            p.put("second_bank_server_answer_p50_ms", phase.secondWindow().percentileMs(50));
            p.put("second_bank_server_answer_p99_ms", phase.secondServerP99Ms());
            p.put("second_bank_server_answer_mean_ms", phase.secondWindow().meanMs());
            p.put("second_bank_server_calls_in_window", phase.secondWindow().timed());
            p.put("second_bank_server_calls", phase.secondServer().callsByAnswer());
            p.put("flooding_bank_server_calls", phase.floodServer().callsByAnswer());
            Map<String, Object> client = new LinkedHashMap<>();
            client.put("second_bank_accept_p50_ms", Bench.percentile(phase.secondBankAcceptMs(), 50));
            client.put("second_bank_accept_p99_ms", phase.secondClientP99Ms());
            client.put("second_bank_answers", phase.secondAnswers());
            client.put("flooding_bank_answers", phase.floodAnswers());
            client.put("second_bank_dropped", phase.secondDropped());
            client.put("flooding_bank_dropped", phase.floodDropped());
            p.put("load_generator_view", client);
            p.put("cpu_seconds", phase.cpuSeconds());
            p.put("load_generator_cpu_seconds", phase.generatorCpuSeconds());
            p.put("window_s", phase.windowSeconds());
            phaseJson.add(p);
        }
        json.put("phases", phaseJson);
        json.put("held", failures.isEmpty());
        json.put("failures", failures);
        return json;
    }
}
