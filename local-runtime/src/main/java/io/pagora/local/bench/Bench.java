package io.pagora.local.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.adapter.Ledgers;
import io.pagora.ledger.port.Ledger;
import io.pagora.local.demo.DemoReport;
import io.pagora.local.load.LoadGenerator;
import io.pagora.local.measure.DiskUsage;
import io.pagora.local.measure.ProcessCpu;
import io.pagora.local.readside.OutcomeLog;
import io.pagora.local.readside.ProjectionLag;
import io.pagora.local.readside.Quiescence;
import io.pagora.local.runfiles.DemoAccounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import javax.sql.DataSource;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

// Over 400 lines: one bench run (warm-up, window, gate, drain) shares its state; split, it would pass it around.
/**
 * The benchmark a payments engineer can trust: a constant offered rate, a warm-up that is not measured,
 * a steady-state window that is, a validity gate, CPU per settled payment per component from {@code /proc},
 * then a drain and the demo's money invariants. {@code infra/local/pagora bench} starts the platform on
 * fresh data, seeds it and runs this; see its help for the options.
 *
 * <p>Validity gate (all must hold, else the run says INVALID and exits 1): the achieved acceptance rate over the window
 * is within 5% of the offered rate, and the settled rate within 5% of the share of it the receiving banks are set to
 * accept (an expired payment is final, so only this sees answers too late); in the window the generator dropped no call
 * for lack of room and got no 5xx or time-out; the backlog (accepted, not yet final in the read model) is bounded: at
 * the window's end at most {@link #BACKLOG_SECONDS_MAX} seconds of the offered rate, and not growing (its mean over the
 * last quarter of the window exceeds the first quarter's by less than half a second of the rate, read
 * {@link #BACKLOG_SAMPLES_PER_SECOND} times a second); PostgreSQL
 * checkpointed inside the window ({@link Checkpoint}); every query of the read side's probe during the window was
 * answered 200, and it measured both kinds ({@link QueryProbe}: a reader's latency under the load, reported, not gated
 * on); after the drain every accepted payment is final; and every invariant check passes.
 */
public final class Bench {

    static final double RATE_TOLERANCE = 0.05;
    static final double BACKLOG_SECONDS_MAX = 2.0;

    /**
     * The backlog rises by a whole call's payments at each answer and falls by a read-model window's at each flush:
     * a saw with a one-second period. Read once a second, a slow drift between the bench's clock and the flushes
     * makes a quarter's mean jump between the saw's floor and its top (a held 500/s step read 15 in its first
     * quarter and 410 in its last); read ten times a second, each quarter's mean is the saw's mean.
     */
    static final int BACKLOG_SAMPLES_PER_SECOND = 10;

    private final Settings settings;
    private final DataSource database;
    private final LoadGenerator generator;
    private final ProcessCpu cpu;
    private final DiskUsage disk;
    private final Supplier<QueryProbe> probes;

    record Settings(
            String ledger,
            LoadGenerator.Mode mode,
            double rate,
            int batchSize,
            int warmupSeconds,
            int windowSeconds,
            int drainSeconds,
            boolean findMax,
            double findMaxFactor,
            double bankAcceptShare,
            Map<String, Long> components) {}

    /** What one constant-rate step measured. */
    record Step(
            double offeredPerS,
            double acceptedPerS,
            double settledPerS,
            long settledInWindow,
            double[] acceptMs,
            double[] acceptToSettledMs,
            double readModelLagP99Ms,
            Map<String, Double> cpuSeconds,
            double loadGeneratorCpuSeconds,
            double windowSeconds,
            long backlogEnd,
            double backlogFirstQuarter,
            double backlogLastQuarter,
            long dropped,
            long unanswered,
            List<String> gateFailures,
            Map<String, Object> timeline,
            Map<String, Double> diskBytesPerPayment,
            Checkpoint checkpoint,
            Map<QueryProbe.Kind, QueryProbe.Figures> queries) {

        boolean valid() {
            return gateFailures.isEmpty();
        }

        /** CPU per settled payment: the platform's, by component, and over TigerBeetle's on its ledger. */
        PlatformCpu cpuPerPayment(String ledger) {
            return PlatformCpu.of(ledger, cpuSeconds, settledInWindow);
        }
    }

    /** The component name of the bank simulator process, whose CPU is not the platform's. */
    static final String BANK_SIMULATOR = "bank-simulator";

    private Bench(
            Settings settings,
            DataSource database,
            LoadGenerator generator,
            ProcessCpu cpu,
            DiskUsage disk,
            Supplier<QueryProbe> probes) {
        this.settings = settings;
        this.probes = probes;
        this.database = database;
        this.disk = disk;
        this.generator = generator;
        this.cpu = cpu;
    }

    public static void main(String[] args) throws Exception {
        BenchOptions options = BenchOptions.parse(args);
        Settings settings = options.settings();
        Check.that(settings.warmupSeconds() >= 0 && settings.windowSeconds() >= 10, "warm-up >= 0 s, window >= 10 s");
        Check.that(settings.findMaxFactor() > 1.0, "find-max factor > 1");
        Check.that(
                settings.bankAcceptShare() >= 0 && settings.bankAcceptShare() <= 1, "the banks' accept share is 0..1");
        Files.createDirectories(options.outDir());

        List<Id128> customers = new ArrayList<>(
                DemoAccounts.read(options.accountsFile()).customerFundings().keySet());
        Path acceptedLog = options.outDir().resolve("accepted.log");
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(options.jdbcUrl());
        config.setUsername(options.user());
        config.setPassword(options.password());
        config.setMaximumPoolSize(2);
        config.setPoolName("bench");
        config.setConnectionTimeout(10_000);
        int exit;
        if (options.lookups()) {
            Check.that(!settings.findMax() && options.overloadFactor() == 0, "--mode=lookup runs at one rate");
            try (HikariDataSource dataSource = new HikariDataSource(config)) {
                exit = LookupBench.run(
                        new LookupBench.Settings(
                                settings.rate(),
                                settings.batchSize(),
                                settings.warmupSeconds(),
                                settings.windowSeconds(),
                                options.endUsers(),
                                options.inFlightMax(),
                                settings.ledger(),
                                settings.components()),
                        options.apis(),
                        options.tls(),
                        customers,
                        options.outDir(),
                        dataSource,
                        new ProcessCpu(options.clockTicksPerSecond()));
            }
            System.exit(exit);
        }
        if (options.overloadFactor() > 0) {
            Check.that(
                    settings.mode() == LoadGenerator.Mode.SINGLE && !settings.findMax(),
                    "--overload is a single-mode run at one rate (the highest single mode holds)");
            try (HikariDataSource dataSource = new HikariDataSource(config)) {
                exit = OverloadBench.run(
                        new OverloadBench.Settings(
                                settings.rate(),
                                options.overloadFactor(),
                                options.secondBankRatePerSecond(),
                                settings.warmupSeconds(),
                                settings.windowSeconds(),
                                settings.drainSeconds(),
                                options.inFlightMax()),
                        options.api(),
                        options.tls(),
                        options.accountsFile(),
                        options.outDir(),
                        dataSource,
                        options.ledgerSettings(),
                        options.bootstrap(),
                        settings.components(),
                        new ProcessCpu(options.clockTicksPerSecond()));
            }
            System.exit(exit);
        }
        try (HikariDataSource dataSource = new HikariDataSource(config);
                LoadGenerator generator = new LoadGenerator(
                        settings.mode(),
                        settings.batchSize(),
                        options.apis(),
                        options.tls(),
                        customers,
                        java.util.Set.of(),
                        acceptedLog,
                        options.inFlightMax(),
                        options.keyShare())) {
            Bench bench = new Bench(
                    settings,
                    dataSource,
                    generator,
                    new ProcessCpu(options.clockTicksPerSecond()),
                    new DiskUsage(dataSource, options.dataDirs()),
                    () -> new QueryProbe(options.reporting(), options.tls(), customers, dataSource));
            exit = bench.run(
                    options.accountsFile(),
                    acceptedLog,
                    options.outDir(),
                    options.ledgerSettings(),
                    options.bootstrap());
        }
        System.exit(exit);
    }

    private int run(
            Path accountsFile, Path acceptedLog, Path outDir, Ledgers.Settings ledgerSettings, String bootstrapServers)
            throws Exception {
        long finalBefore = finalCount();
        List<Step> steps = new ArrayList<>();
        double rate = settings.rate();
        Step chosen;
        if (settings.findMax()) {
            chosen = null;
            for (int attempt = 0; attempt < 20; attempt++) {
                Step step = step(rate);
                steps.add(step);
                PlatformCpu stepCpu = step.cpuPerPayment(settings.ledger());
                say(String.format(
                        Locale.ROOT,
                        "find-max: %.0f/s offered, %.0f settled/s, %.1f µs per payment, platform ÷ TigerBeetle %s"
                                + " -> %s",
                        rate,
                        step.settledPerS(),
                        stepCpu.platformUs(),
                        PlatformCpu.ratioText(stepCpu.platformToLedgerRatio()),
                        step.valid() ? "held" : "broke (" + String.join("; ", step.gateFailures()) + ")"));
                if (!step.valid()) {
                    break;
                }
                chosen = step;
                rate *= settings.findMaxFactor();
            }
            if (chosen == null) {
                chosen = steps.getFirst();
            }
        } else {
            chosen = step(rate);
            steps.add(chosen);
        }
        generator.awaitAnswers();
        say("calls by answer, the whole run (warm-ups included): " + generator.answerClasses());
        boolean drained =
                drainAll(database, generator::accepted, finalBefore, settings.drainSeconds(), bootstrapServers);

        say("invariant checks (the demo report's four) ...");
        DemoReport.Result report;
        try (Ledger ledger = Ledgers.open(ledgerSettings, () -> database)) {
            report = DemoReport.run(
                    new DemoReport.Inputs(accountsFile, List.of(acceptedLog), null, "reporting"),
                    database,
                    ledger,
                    () -> OutcomeLog.read(bootstrapServers));
        }
        Files.write(outDir.resolve("report.txt"), report.lines());
        report.verdicts()
                .forEach(v -> say(String.format("  [%s] %s: %s", v.passed() ? "PASS" : "FAIL", v.name(), v.summary())));

        List<String> failures = new ArrayList<>(chosen.gateFailures());
        if (settings.findMax() && chosen.valid()) {
            failures.clear(); // the chosen step held; the next one's failure is the find-max result, not a fault
        }
        if (!drained) {
            failures.add("not every accepted payment was final, or the platform not quiet, " + settings.drainSeconds()
                    + " s after the load stopped");
        }
        if (!report.passed()) {
            failures.add("invariant checks failed (see report.txt)");
        }
        BenchReport result = new BenchReport(settings, chosen, failures, report.passed());
        JsonMapper mapper =
                JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
        Map<String, Object> json = result.json(steps);
        mapper.writeValue(outDir.resolve("result.json").toFile(), json);
        BenchHtml.write(outDir.resolve("report.html"), mapper.valueToTree(json));
        result.table(steps).forEach(System.out::println);
        return failures.isEmpty() ? 0 : 1;
    }

    /** One constant-rate run: warm-up, then the measured window. */
    private Step step(double rate) throws Exception {
        long accepted0 = generator.accepted();
        long final0 = finalCount();
        long start = System.nanoTime();
        long windowStart = start + settings.warmupSeconds() * 1_000_000_000L;
        long windowEnd = windowStart + settings.windowSeconds() * 1_000_000_000L;
        generator.measure(windowStart, windowEnd);
        say(String.format(
                Locale.ROOT,
                "%s load at %.0f payments/s%s: %d s warm-up, then a %d s window",
                settings.mode(),
                rate,
                settings.mode() == LoadGenerator.Mode.BULK ? " (" + settings.batchSize() + " per call)" : "",
                settings.warmupSeconds(),
                settings.windowSeconds()));
        int warmup = settings.warmupSeconds();
        int stepSeconds = warmup + settings.windowSeconds();
        Timeline timeline = new Timeline(start, stepSeconds);
        generator.timeline(timeline);
        timeline.sample(0, 0, 0, 0, timelineCpu());
        Thread sender = Thread.ofPlatform().name("bench-sender").start(() -> generator.offer(rate, windowEnd));

        // Once a second from the step's start, warm-up included (report.html's series); the window's figures are read
        // at its first and last second exactly as before: the gate's backlog samples are the window's ticks.
        Map<String, Double> cpu0 = null;
        double own0 = 0;
        Instant wall0 = null;
        long acceptedAtStart = 0;
        long droppedAtStart = 0;
        long unansweredAtStart = 0;
        long refusedAtStart = 0;
        DiskUsage.Snapshot disk0 = null;
        List<Long> backlog = new ArrayList<>();
        Checkpoint checkpoint = null;
        QueryProbe probe = null;
        for (int second = warmup == 0 ? 0 : 1; second <= stepSeconds; second++) {
            if (second - 1 >= warmup) {
                // Inside the window, the second before this one is sampled for the gate at its ticks too.
                long secondStart = start + (second - 1) * 1_000_000_000L;
                for (int tick = 1; tick < BACKLOG_SAMPLES_PER_SECOND; tick++) {
                    sleepUntil(secondStart + tick * 1_000_000_000L / BACKLOG_SAMPLES_PER_SECOND);
                    backlog.add((generator.accepted() - accepted0) - (finalCount() - final0));
                }
            }
            sleepUntil(start + second * 1_000_000_000L);
            if (second == warmup) {
                cpu0 = cpu.seconds(settings.components());
                own0 = cpu.ownSeconds();
                wall0 = Instant.now();
                acceptedAtStart = generator.accepted();
                droppedAtStart = generator.dropped();
                unansweredAtStart = generator.unanswered();
                refusedAtStart = generator.refused();
                disk0 = disk.snapshot();
                probe = probes.get();
                probe.start();
            }
            if (second == stepSeconds) {
                break;
            }
            if (second == warmup + settings.windowSeconds() / 2) {
                checkpoint = Checkpoint.start(database, second);
            }
            long accepted = generator.accepted() - accepted0;
            long finalized = finalCount() - final0;
            if (second > warmup) {
                backlog.add(accepted - finalized);
            }
            if (second > 0) {
                timeline.sample(second, accepted, finalized, accepted - finalized, timelineCpu());
            }
        }
        Check.that(cpu0 != null && wall0 != null && probe != null, "the window's start was read");
        Map<String, Double> cpu1 = cpu.seconds(settings.components());
        double own1 = cpu.ownSeconds();
        Instant wall1 = Instant.now();
        long acceptedAtEnd = generator.accepted();
        long finalAtEnd = finalCount() - final0;
        long backlogEnd = (acceptedAtEnd - accepted0) - finalAtEnd;
        DiskUsage.Snapshot disk1 = disk.snapshot();
        // After the window's CPU and wall readings: stopping the probe must not lengthen the measured window.
        Map<QueryProbe.Kind, QueryProbe.Figures> queries = probe.stop();
        Map<String, Double> cpuAtEnd = new LinkedHashMap<>(cpu1);
        cpuAtEnd.put(LOAD_GENERATOR, own1);
        timeline.sample(stepSeconds, acceptedAtEnd - accepted0, finalAtEnd, backlogEnd, cpuAtEnd);
        sender.join();
        // The window's last calls are its slowest: their latencies count, so wait for every answer; and the
        // read model must hold every payment that became final in the window before it is asked about them
        // (it lags by up to a poll).
        generator.awaitAnswers();
        drain(accepted0, final0, settings.drainSeconds());

        double windowSeconds = Duration.between(wall0, wall1).toNanos() / 1e9;
        Map<String, Double> cpuSeconds = new LinkedHashMap<>();
        Map<String, Double> atWindowStart = cpu0;
        cpu1.forEach((name, seconds) -> cpuSeconds.put(name, seconds - atWindowStart.getOrDefault(name, 0.0)));
        WindowFacts facts = windowFacts(wall0, wall1);
        double acceptedPerS = (acceptedAtEnd - acceptedAtStart) / windowSeconds;
        double[] acceptMs = generator.takeWindowLatenciesMs();
        double firstQuarter = quarterMean(backlog, true);
        double lastQuarter = quarterMean(backlog, false);
        // Judged over the window: a cold platform's warm-up may drop calls, which is what the warm-up is for.
        long dropped = generator.dropped() - droppedAtStart;
        long unanswered = generator.unanswered() - unansweredAtStart;
        long refused = generator.refused() - refusedAtStart;

        double settledPerS = facts.settled / windowSeconds;
        List<String> failures = gateFailures(new GateFigures(
                rate,
                acceptedPerS,
                settledPerS,
                settings.bankAcceptShare(),
                dropped,
                unanswered,
                refused,
                backlogEnd,
                firstQuarter,
                lastQuarter));
        Check.that(checkpoint != null, "the window's middle second was reached");
        checkpoint.await().ifPresent(failures::add);
        failures.addAll(QueryProbe.gateFailures(queries));
        generator.timeline(null);
        return new Step(
                rate,
                acceptedPerS,
                settledPerS,
                facts.settled,
                acceptMs,
                facts.acceptToSettledMs,
                facts.lagP99Ms,
                cpuSeconds,
                own1 - own0,
                windowSeconds,
                backlogEnd,
                firstQuarter,
                lastQuarter,
                dropped,
                unanswered,
                failures,
                timeline.json(warmup, stepSeconds, rate),
                disk1.bytesPerPaymentSince(disk0, facts.settled),
                checkpoint,
                queries);
    }

    /**
     * A PostgreSQL checkpoint forced in the middle of the window, on its own thread: checkpoints are part of steady state
     * (the bench's settings space them 30 minutes apart, so a window would otherwise never see one), and their cost
     * (writing the dirty pages, then full-page images in the WAL) lands inside the measured figures.
     */
    static final class Checkpoint {
        private static final long TIMEOUT_SECONDS = 600;
        final int atSecond;
        private final CompletableFuture<Double> seconds;

        private Checkpoint(int atSecond, CompletableFuture<Double> seconds) {
            this.atSecond = atSecond;
            this.seconds = seconds;
        }

        static Checkpoint start(DataSource database, int atSecond) {
            CompletableFuture<Double> seconds = new CompletableFuture<>();
            Thread.ofVirtual().name("bench-checkpoint").start(() -> {
                long start = System.nanoTime();
                try (Connection connection = database.getConnection();
                        Statement statement = connection.createStatement()) {
                    statement.execute("CHECKPOINT");
                    seconds.complete((System.nanoTime() - start) / 1e9);
                } catch (SQLException | RuntimeException e) {
                    seconds.completeExceptionally(e);
                }
            });
            say(String.format(
                    Locale.ROOT, "a PostgreSQL checkpoint forced at second %d (the window's middle)", atSecond));
            return new Checkpoint(atSecond, seconds);
        }

        /** One already taken, that took {@code seconds}: what a finished step holds. */
        static Checkpoint taken(int atSecond, double seconds) {
            return new Checkpoint(atSecond, CompletableFuture.completedFuture(seconds));
        }

        /** Waits (bounded) for it; the gate's failure if it did not happen. */
        Optional<String> await() {
            try {
                say(String.format(
                        Locale.ROOT, "the checkpoint took %.1f s", seconds.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)));
                return Optional.empty();
            } catch (ExecutionException | TimeoutException e) {
                return Optional.of("no PostgreSQL checkpoint in the window: "
                        + (e.getCause() == null ? e : e.getCause()).toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.of("interrupted while waiting for the window's checkpoint");
            }
        }

        /** How long it took, in seconds (NaN if it failed). */
        double seconds() {
            return seconds.isDone() && !seconds.isCompletedExceptionally() ? seconds.join() : Double.NaN;
        }
    }

    /** Every component's CPU seconds so far, and the load generator's (this process's). */
    private Map<String, Double> timelineCpu() {
        Map<String, Double> seconds = new LinkedHashMap<>(cpu.seconds(settings.components()));
        seconds.put(LOAD_GENERATOR, cpu.ownSeconds());
        return seconds;
    }

    /** The load generator's name in the timeline's CPU series. */
    static final String LOAD_GENERATOR = "load-generator";

    /**
     * What the gate judges of one step's window: the rates (offered, accepted, settled), the share of payments the
     * receiving banks are set to accept, the calls the generator counted by fate, and the backlog.
     */
    record GateFigures(
            double rate,
            double acceptedPerS,
            double settledPerS,
            double bankAcceptShare,
            long dropped,
            long unanswered,
            long refused,
            long backlogEnd,
            double firstQuarter,
            double lastQuarter) {}

    /** The mean of the first quarter of {@code samples}, or of the last; 0 when there is none. */
    static double quarterMean(List<Long> samples, boolean first) {
        int quarter = Math.max(1, samples.size() / 4);
        return samples.stream()
                .skip(first ? 0 : Math.max(0, samples.size() - quarter))
                .limit(quarter)
                .mapToLong(Long::longValue)
                .average()
                .orElse(0);
    }

    /** The validity gate over one step's window (see the class comment): empty when the step held. */
    static List<String> gateFailures(GateFigures figures) {
        double rate = figures.rate();
        long dropped = figures.dropped();
        long unanswered = figures.unanswered();
        long refused = figures.refused();
        long backlogEnd = figures.backlogEnd();
        double firstQuarter = figures.firstQuarter();
        double lastQuarter = figures.lastQuarter();
        List<String> failures = new ArrayList<>();
        if (figures.acceptedPerS() < rate * (1 - RATE_TOLERANCE)) {
            failures.add(String.format(
                    Locale.ROOT,
                    "accepted %.0f/s, more than %.0f%% below the %.0f/s offered",
                    figures.acceptedPerS(),
                    RATE_TOLERANCE * 100,
                    rate));
        }
        // Accepted is not settled: with the banks as participants a payment whose answer comes after the pending
        // timeout expires, and an expired payment is final, so neither the accepted rate nor the backlog shows it.
        double settledExpectedPerS = rate * figures.bankAcceptShare();
        if (figures.settledPerS() < settledExpectedPerS * (1 - RATE_TOLERANCE)) {
            failures.add(String.format(
                    Locale.ROOT,
                    "settled %.0f/s, more than %.0f%% below the %.0f/s expected (%.0f/s offered, the banks set to"
                            + " accept %.0f%%)",
                    figures.settledPerS(),
                    RATE_TOLERANCE * 100,
                    settledExpectedPerS,
                    rate,
                    figures.bankAcceptShare() * 100));
        }
        if (dropped > 0) {
            failures.add(
                    dropped + " payments dropped: the in-flight bound was reached (the platform answered too slowly)");
        }
        if (unanswered > 0) {
            failures.add(unanswered + " payments got a 5xx, no answer, or an unknown outcome");
        }
        if (refused > 0) {
            // Every account is funded for the whole run and every order is well formed: a refusal is a fault.
            failures.add(refused + " payments were refused");
        }
        if (backlogEnd > rate * BACKLOG_SECONDS_MAX) {
            failures.add(String.format(
                    Locale.ROOT,
                    "backlog at the window's end %d > %.0f (%.0f s of the offered rate)",
                    backlogEnd,
                    rate * BACKLOG_SECONDS_MAX,
                    BACKLOG_SECONDS_MAX));
        }
        if (lastQuarter > firstQuarter + rate * 0.5) {
            failures.add(String.format(
                    Locale.ROOT,
                    "backlog growing: mean %.0f in the first quarter, %.0f in the last",
                    firstQuarter,
                    lastQuarter));
        }
        return failures;
    }

    /**
     * Waits (bounded) until every payment the generator was told is accepted since {@code acceptedBase} is
     * final in the read model, counting finals since {@code finalBase}. For the window's figures, which only need the
     * payments of the window in the read model: the counts alone ({@link #drainAll} before the run is judged).
     */
    private boolean drain(long acceptedBase, long finalBase, int seconds) throws Exception {
        return drain(
                new DrainLooks(generator::accepted, () -> finalCount(database), () -> 0, () -> 0),
                acceptedBase,
                finalBase,
                seconds);
    }

    /**
     * Before the run is judged: as above, and until the read model holds no payment still ACCEPTED and has projected
     * every payment request and outcome published; then until that held, with no new payment, for a quiet period
     * ({@link Quiescence}). A payment accepted whose answer was lost (a time-out) becomes
     * final too, so the count alone is reached while a payment the generator was told is accepted may still be on
     * its way: judged then, it showed as missing (seen: "100 missing, 117 not final" in a run with 2,572 calls
     * unanswered, the read model exactly those 217 behind the outcomes topic).
     */
    static boolean drainAll(DataSource database, Look accepted, long finalBase, int seconds, String bootstrapServers)
            throws Exception {
        if (!drain(
                new DrainLooks(
                        accepted,
                        () -> finalCount(database),
                        () -> notFinalCount(database),
                        () -> ProjectionLag.unprojected(bootstrapServers)),
                0,
                finalBase,
                seconds)) {
            return false;
        }
        // The checks judge the participants' returns too: those of the last settlements are asked a moment later.
        Quiescence.Result quiet = Quiescence.await(
                database,
                "reporting",
                bootstrapServers,
                Quiescence.QUIET_DEFAULT,
                Quiescence.atLeastQuiet(Duration.ofSeconds(seconds)));
        say("drain: " + quiet.describe());
        return quiet.quiet();
    }

    /**
     * What a drain looks at, read afresh on each look: payments the generator was told are accepted, payments final
     * in the read model, payments in it not final yet, and records the read model has still to project.
     */
    record DrainLooks(Look accepted, Look finals, Look notFinal, Look unprojected) {}

    /** One figure a drain looks at: read from the database, Kafka or the generator. */
    interface Look {
        long get() throws Exception;
    }

    static boolean drain(DrainLooks looks, long acceptedBase, long finalBase, int seconds) throws Exception {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (true) {
            long open =
                    (looks.accepted().get() - acceptedBase) - (looks.finals().get() - finalBase);
            // The dearer looks only once the cheaper ones are done: the read model's row, then Kafka's offsets.
            long notFinal = open > 0 ? -1 : looks.notFinal().get();
            long unprojected = notFinal != 0 ? -1 : looks.unprojected().get();
            if (open <= 0 && notFinal == 0 && unprojected == 0) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                say(String.format(
                        Locale.ROOT,
                        "drain: after %d s, %d accepted payments not final, %d read-model payments"
                                + " not final, %d records not projected (-1: not looked at)",
                        seconds,
                        open,
                        notFinal,
                        unprojected));
                return false;
            }
            Thread.sleep(500);
        }
    }

    private record WindowFacts(long settled, double[] acceptToSettledMs, double lagP99Ms) {}

    /**
     * The read model's view of the window: the payments that settled in it, their accept→settled times
     * (final_at − accepted_at) and how long each took to become visible (updated_at − final_at: the row's last write is the one that made it final).
     */
    private WindowFacts windowFacts(Instant from, Instant to) throws SQLException {
        String sql = """
                SELECT count(*),
                       percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM final_at - accepted_at)),
                       percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM final_at - accepted_at)),
                       percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM updated_at - final_at))
                FROM reporting.payments
                WHERE status = 'SETTLED' AND final_at >= ? AND final_at < ?
                """;
        try (Connection connection = database.getConnection();
                PreparedStatement query = connection.prepareStatement(sql)) {
            query.setTimestamp(1, Timestamp.from(from));
            query.setTimestamp(2, Timestamp.from(to));
            try (ResultSet row = query.executeQuery()) {
                Check.that(row.next(), "an aggregate answers one row");
                long settled = row.getLong(1);
                return new WindowFacts(
                        settled, new double[] {row.getDouble(2) * 1e3, row.getDouble(3) * 1e3}, row.getDouble(4) * 1e3);
            }
        }
    }

    /** Payments final in the read model (its one-row counters; cheap enough to ask every second). */
    private long finalCount() throws SQLException {
        return finalCount(database);
    }

    /** Payments in the read model still ACCEPTED (payment_stats, kept by the projection in its transaction). */
    static long notFinalCount(DataSource database) throws SQLException {
        return paymentStats(database, "accepted_count");
    }

    /**
     * Payments final in the read model, the participants' returns apart: those are not the load generator's (it
     * counts what it accepted), and counting them would hide a backlog of its own payments.
     */
    static long finalCount(DataSource database) throws SQLException {
        return paymentStats(database, "settled_count + rejected_count + expired_count - returns_final_count");
    }

    /** One figure of the read model's one-row counters ({@code columns}: a constant of this class, never input). */
    private static long paymentStats(DataSource database, String columns) throws SQLException {
        try (Connection connection = database.getConnection();
                PreparedStatement query = connection.prepareStatement(
                        "SELECT " + columns + " FROM reporting.payment_stats WHERE id = 1");
                ResultSet row = query.executeQuery()) {
            Check.that(row.next(), "the payment_stats row exists");
            return row.getLong(1);
        }
    }

    static double percentile(double[] sorted, double percent) {
        return sorted.length == 0 ? Double.NaN : DemoReport.percentile(sorted, percent);
    }

    static void sleepUntil(long nanos) throws InterruptedException {
        long wait;
        while ((wait = nanos - System.nanoTime()) > 0) {
            Thread.sleep(Math.max(1, wait / 1_000_000));
        }
    }

    static void say(String line) {
        System.out.println("[bench] " + line);
    }
}
