package io.pagora.local.launcher.commands;

import io.pagora.local.launcher.Console;
import io.pagora.local.launcher.Exec;
import io.pagora.local.launcher.Layout;
import io.pagora.local.launcher.Settings;
import io.pagora.local.launcher.Supervisor;
import io.pagora.local.launcher.platform.Platform;
import io.pagora.local.launcher.platform.Postgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The demo: a fresh platform, the seeded banks and customers, PAYMENTS payments with k6 after a warm-up, a bounded
 * wait for every outcome, and the report with its four money checks. Passes only when the report's checks and
 * k6's thresholds hold.
 */
public final class Demo {

    /** An answer to k6's judged scenario: its idempotency keys are k6-<run>-load-<n> (k6/lib/payments.js). */
    private static final java.util.regex.Pattern JUDGED_ANSWER = java.util.regex.Pattern.compile("-load-[0-9]");

    private final Platform platform;
    private final Settings settings;
    private final Layout layout;
    private long settledBefore;

    public Demo(Platform platform) {
        this.platform = platform;
        this.settings = platform.settings;
        this.layout = platform.layout;
    }

    public int run(boolean keep) {
        platform.refusePlainHttp("demo");
        platform.removeData("the demo");
        deleteLogs();
        boolean passed = false;
        try {
            platform.up();
            Load.seed(platform);
            int k6Status = sendPayments();
            awaitOutcomes();
            fraudReport();
            int reportStatus = report();
            Console.say(
                    "report: %s (as a page: %s)   k6: %s   answers: %s   logs: %s/",
                    layout.demo().resolve("report.txt"),
                    layout.demo().resolve("report.html"),
                    layout.log("k6"),
                    answers(),
                    layout.log());
            if (reportStatus != 0) {
                throw Console.fail("the demo report has failing checks (exit %d)", reportStatus);
            }
            if (k6Status != 0) {
                throw Console.fail("k6 thresholds failed (exit %d): see %s", k6Status, layout.log("k6"));
            }
            passed = true;
            return 0;
        } finally {
            if (keep && passed) {
                Console.say("platform left running (--keep): 'infra/local/pagora down' stops it");
                platform.statusReport.printEndpoints();
            } else {
                Console.say(
                        keep
                                ? "demo failed: stopping the platform"
                                : "demo ending: stopping the platform (use --keep" + " to leave it running)");
                platform.down();
            }
        }
    }

    /** The demo's answer log (warm-up and measured run, one k6 run): the one list report, await-final and verify read. */
    Path answers() {
        return layout.demo().resolve("k6-answers.log");
    }

    private void deleteLogs() {
        try (var logs = Files.list(layout.log())) {
            for (Path log :
                    logs.filter(path -> path.toString().endsWith(".log")).toList()) {
                Files.deleteIfExists(log);
            }
        } catch (IOException noLogs) {
            // nothing to delete
        }
    }

    /**
     * One k6 run: first the warm-up (a just-started platform answers its first seconds slowly; its payments are
     * checked like every other, its latency is not judged), then PAYMENTS, judged, on the warm-up's connections.
     * k6's teardown waits for every payment of its bank to be final and fails the thresholds if one is not.
     */
    private int sendPayments() {
        Supervisor.delete(answers());
        Supervisor.delete(layout.demo().resolve("k6-summary.json"));
        Optional<K6> k6 = K6.find(platform);
        int payments = settings.integer("PAYMENTS");
        if (k6.isEmpty()) {
            Console.banner("DEGRADED MODE: k6 not found (set K6_BIN, or install Go and rerun) -- sending with a plain"
                    + " Java loop: no arrival-rate control, no accept latency percentiles");
            Load.sendDegraded(platform, payments, answers());
            return 0;
        }
        int warmupSeconds = settings.integer("WARMUP_SECONDS");
        // The scaled platform is fourteen processes on the same cores: its demo offers half the single one's rate.
        int rate = settings.integer(platform.runningTopology().scaled() ? "SCALED_RATE" : "RATE");
        Console.say(
                "sending with k6 (%s, k6/pagora.js SCENARIO=load): a %ds warm-up up to %d/s (not judged), then %d"
                        + " payments at %d/s, duplicates %s, key re-uses %s, insufficient funds %s, by PIX key %s,"
                        + " by BR Code %s (log %s)",
                k6.get().binary(),
                warmupSeconds,
                rate,
                payments,
                rate,
                settings.text("DUP_SHARE"),
                settings.text("CONFLICT_SHARE"),
                settings.text("NSF_SHARE"),
                settings.text("KEY_SHARE"),
                settings.text("QR_SHARE"),
                layout.log("k6"));
        if (warmupSeconds == 0) {
            snapshotBeforeJudgedRun();
        }
        Map<String, String> variables = new LinkedHashMap<>();
        variables.put("WARMUP", warmupSeconds + "s");
        variables.put("PAYMENTS", Integer.toString(payments));
        variables.put("RATE", Integer.toString(rate));
        variables.put("SETTLE_TIMEOUT", settings.integer("FINAL_WAIT_SECONDS") + "s");
        variables.put("ACCEPT_P95_MS", Integer.toString(settings.integer("ACCEPT_P95_MS")));
        variables.put("ACCEPT_P99_MS", Integer.toString(settings.integer("ACCEPT_P99_MS")));
        variables.put("ERROR_RATE_MAX", Double.toString(settings.share("ERROR_RATE_MAX")));
        variables.put("SUMMARY_JSON", layout.demo().resolve("k6-summary.json").toString());
        variables.put(
                "PRE_VUS",
                Integer.toString(
                        preallocatedVus(rate, settings.integer("ACCEPT_P99_MS"), settings.integer("K6_MAX_VUS"))));
        Process process = k6.get().start("demo-" + System.currentTimeMillis() / 1000, answers(), variables);
        if (warmupSeconds > 0) {
            awaitJudgedRun(process, warmupSeconds);
            snapshotBeforeJudgedRun();
        }
        int status = k6.get().await(process);
        System.out.println(K6.summary(layout.log("k6")));
        if (status != 0) {
            Console.warn(
                    "k6 exited with status %d (a threshold failed, or k6 itself did; log %s)",
                    status, layout.log("k6"));
        }
        return status;
    }

    /**
     * k6's VUs made before the load starts: enough to hold the rate while every answer takes as long as the demo's
     * own p99 threshold allows (at most K6_MAX_VUS). With fewer, a cold platform's slow second leaves k6 without a
     * free VU, and k6 drops iterations while it makes more (on two slow cores: 167 dropped at 200/s with 200 made
     * up front, answers' p99 736 ms, max 1.7 s): a shortfall of the load generator, judged as the platform's.
     */
    static int preallocatedVus(int rate, int acceptP99Ms, int maxVus) {
        long needed = Math.max(1, (long) rate * acceptP99Ms / 1000);
        return (int) Math.min(needed, maxVus);
    }

    /** Until k6's judged scenario has its first answer (its keys: k6-<run>-load-<n>), or k6 has ended; bounded. */
    private void awaitJudgedRun(Process k6, int warmupSeconds) {
        long boundMs = (warmupSeconds + 11 + 360) * 1000L;
        Supervisor.waitUntil(() -> !k6.isAlive() || answersHoldJudgedPayment(), boundMs);
    }

    private boolean answersHoldJudgedPayment() {
        try {
            return Files.exists(answers())
                    && JUDGED_ANSWER.matcher(Files.readString(answers())).find();
        } catch (IOException | java.io.UncheckedIOException partial) {
            return false;
        }
    }

    /** The CPU and the settled count just before the judged payments: the report's "measured run" starts here. */
    private void snapshotBeforeJudgedRun() {
        settledBefore = platform.services.settledCount();
        if (cpuSnapshot(layout.demo().resolve("cpu-before.txt")) != 0) {
            Console.warn("no CPU snapshot (the report will lack the CPU table)");
        }
    }

    private int cpuSnapshot(Path out) {
        return platform.tools.run(
                List.of(),
                "cpu",
                List.of(
                        "--components=" + platform.statusReport.componentPids(),
                        "--clock-ticks=" + clockTicks(),
                        "--out=" + out),
                null,
                layout.log("report"));
    }

    static long clockTicks() {
        String ticks = Exec.capture(List.of("getconf", "CLK_TCK")).output().strip();
        return ticks.matches("\\d+") ? Long.parseLong(ticks) : 100;
    }

    /**
     * Bounded: until the read model has a final state for every accepted payment and the platform is quiet, the
     * participants' returns final too (local-runtime await-final).
     */
    private void awaitOutcomes() {
        int status = platform.tools.run(
                List.of(),
                "await-final",
                List.of(
                        "--accepted=" + answers(),
                        "--final-wait-seconds=" + settings.integer("FINAL_WAIT_SECONDS"),
                        "--bootstrap-servers=" + platform.kafkaBootstrap(),
                        "--jdbc-url=" + Postgres.JDBC_URL,
                        "--db-user=" + Postgres.USER,
                        "--db-password=" + Postgres.PASSWORD),
                null,
                layout.log("report"));
        if (status != 0) {
            Console.warn(
                    "could not wait for the outcomes (log: %s); the report will say what is not final",
                    layout.log("report"));
        }
    }

    /**
     * A fraud report traced two hops and held (docs/med.md), through the public API, before the report's checks: its
     * payments are in the books the checks judge.
     */
    private void fraudReport() {
        List<Long> ispbs = Settings.seededIspbs(settings.integer("BANKS"));
        // The last seeded bank's reserve is kept small on purpose (refusals for want of reserve): not for the scam.
        List<Long> funded = ispbs.size() > 1 ? ispbs.subList(0, ispbs.size() - 1) : ispbs;
        Path log = layout.log("med");
        // The simulator returns RETURN_RATE of what is paid to its banks: a return of one of the scam's payments
        // would take the money the next hop moves on (the scenario then fails for want of funds), so none is
        // returned while the scenario runs.
        if (platform.services.participantsAnswer()) {
            Console.say("the bank simulator returns nothing paid to %s while the fraud report's scenario runs", funded);
        }
        platform.services.bankSimulatorReturns(funded, 0);
        int status;
        try {
            status = runFraudReport(funded, log);
        } finally {
            platform.services.bankSimulatorReturns(funded, settings.share("RETURN_RATE"));
        }
        System.out.println(Supervisor.tail(log, 16));
        if (status != 0) {
            throw Console.fail("the fraud report's scenario failed (log: %s)", log);
        }
    }

    private int runFraudReport(List<Long> funded, Path log) {
        return platform.tools.runLogged(
                List.of(),
                "med-scenario",
                List.of(
                        "--api-url=" + platform.serviceUrl("payment-api", ""),
                        "--reporting-url=" + platform.serviceUrl("reporting-service", ""),
                        "--tls-dir=" + layout.tls(),
                        "--accounts=" + layout.accounts(),
                        "--answers=" + answers(),
                        "--ispbs="
                                + String.join(
                                        ",",
                                        funded.stream()
                                                .map(ispb -> "%08d".formatted(ispb))
                                                .toList())),
                log);
    }

    private int report() {
        List<String> arguments = new ArrayList<>(List.of(
                "--accounts=" + layout.accounts(),
                "--accepted=" + answers(),
                "--k6-summary=" + layout.demo().resolve("k6-summary.json"),
                "--bootstrap-servers=" + platform.kafkaBootstrap(),
                "--jdbc-url=" + Postgres.JDBC_URL,
                "--db-user=" + Postgres.USER,
                "--db-password=" + Postgres.PASSWORD,
                "--ledger-backend=" + platform.runningLedger(),
                "--tigerbeetle-addresses=" + platform.tigerBeetleAddresses(),
                "--html=" + layout.demo().resolve("report.html")));
        Path before = layout.demo().resolve("cpu-before.txt");
        Path after = layout.demo().resolve("cpu-after.txt");
        if (Files.exists(before) && cpuSnapshot(after) == 0) {
            arguments.addAll(
                    List.of("--cpu-before=" + before, "--cpu-after=" + after, "--settled-before=" + settledBefore));
        }
        Path report = layout.demo().resolve("report.txt");
        int status = platform.tools.run(
                List.of("-Xmx1g", "--enable-native-access=ALL-UNNAMED"),
                "report",
                arguments,
                report,
                layout.log("report"));
        try {
            System.out.print(Files.readString(report));
        } catch (IOException e) {
            Console.warn("no report at %s", report);
        }
        if (status != 0) {
            System.err.println(Supervisor.tail(layout.log("report"), 20));
        }
        return status;
    }
}
