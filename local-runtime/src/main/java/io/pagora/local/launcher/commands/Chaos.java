package io.pagora.local.launcher.commands;

import io.pagora.local.launcher.Console;
import io.pagora.local.launcher.Layout;
import io.pagora.local.launcher.Settings;
import io.pagora.local.launcher.Supervisor;
import io.pagora.local.launcher.platform.Platform;
import io.pagora.local.launcher.platform.Postgres;
import io.pagora.local.launcher.platform.ServiceProcesses;
import io.pagora.local.launcher.platform.Topology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

// Over 400 lines: the fault catalogue, each fault beside its recovery, reads best as one table.
/**
 * The fault catalogue (docs/faults.md). One fresh platform per ledger, seeded for the whole run; the scenarios one
 * after the other, each under its own k6 load (CHAOS_RATE/s): CHAOS_BEFORE_SECONDS of load, the fault, load until
 * the fault's budget and CHAOS_AFTER_SECONDS are over, while local-runtime's chaos-check (started when the fault
 * ends) measures recovery, lost and duplicated payments and the four money checks. This class only supervises.
 */
public final class Chaos {

    /**
     * Each scenario and how long its fault is expected to last at most (a service restart takes ~25 s on a 2-core
     * machine): k6 runs before + this + after and ends by itself, so every answer it got is logged (an interrupted
     * k6 drops the answers of its calls in flight). A fault that outlasts its budget only shortens the load after it.
     */
    static final Map<String, Integer> FAULT_SECONDS = faultSeconds();

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    private static final int LOCK_ATTEMPTS_MAX = 5;

    private final Platform platform;
    private final Settings settings;
    private final Layout layout;

    private Chaos(Platform platform) {
        this.platform = platform;
        this.settings = platform.settings;
        this.layout = platform.layout;
    }

    private static Map<String, Integer> faultSeconds() {
        Map<String, Integer> seconds = new LinkedHashMap<>();
        seconds.put("kill-clearing-twice", 75);
        seconds.put("kill-reporting", 40);
        seconds.put("kill-payment-api", 40);
        seconds.put("kafka-restart", 45);
        seconds.put("ledger-unavailable", 45);
        seconds.put("postgres-restart", 30);
        seconds.put("poison", 15);
        seconds.put("slow-bank", 95);
        seconds.put("bank-down", 60);
        seconds.put("kafka-outage", -1); // CHAOS_KAFKA_OUTAGE_SECONDS + 20
        // The scaled platform's (chaos --scale, docs/scale-out.md): one machine of each kind lost, the rest carry on.
        // Each fault lasts CHAOS_NODE_DOWN_SECONDS plus the restart (a service's on 14 busy processes: up to ~40 s; a
        // TigerBeetle replica's ~40 s, most of it reading its 1 GiB journal back with Direct IO).
        seconds.put("kill-tigerbeetle-replica", 75);
        seconds.put("kill-tigerbeetle-primary", 75);
        seconds.put("pause-tigerbeetle-primary", 40);
        seconds.put("kill-kafka-broker", 60);
        seconds.put("kill-kafka-controller", 60);
        seconds.put("kill-payment-api-instance", 75);
        seconds.put("kill-clearing-instance", 75);
        seconds.put("kill-reporting-instance", 75);
        return java.util.Collections.unmodifiableMap(seconds);
    }

    /** The scenarios that need the scaled platform (a second of everything to fail over to). */
    static final List<String> SCALED_SCENARIOS = List.of(
            "kill-tigerbeetle-replica",
            "kill-tigerbeetle-primary",
            "pause-tigerbeetle-primary",
            "kill-kafka-broker",
            "kill-kafka-controller",
            "kill-payment-api-instance",
            "kill-clearing-instance",
            "kill-reporting-instance");

    /** {@code all}: the single platform's catalogue, or the scaled one's with --scale. */
    static List<String> catalogue(boolean scaled) {
        return FAULT_SECONDS.keySet().stream()
                .filter(scenario -> SCALED_SCENARIOS.contains(scenario) == scaled)
                .toList();
    }

    /** The scenarios named on the command line ({@code all}: every one) and the ledger option. */
    record Plan(List<String> scenarios, List<String> ledgers) {}

    static Plan plan(List<String> arguments, String defaultLedger) {
        return plan(arguments, defaultLedger, false);
    }

    static Plan plan(List<String> arguments, String defaultLedger, boolean scaled) {
        ChaosOptions options = ChaosOptions.parse(arguments, defaultLedger, scaled);
        return new Plan(options.scenarios(), BenchRun.ledgers(options.ledger()));
    }

    public static int run(Platform base, List<String> arguments) {
        base.refusePlainHttp("chaos");
        Plan plan =
                plan(arguments, base.ledgerBackend(), base.requestedTopology().scaled());
        BenchRun.requireTigerBeetle(plan.ledgers(), base.settings);
        Path summary = base.layout.chaos().resolve("summary.txt");
        Platform.createDirectories(base.layout.chaos());
        write(summary, "", false);
        for (String ledger : plan.ledgers()) {
            Platform platform = base.with(chaosSettings(base.settings, ledger));
            try {
                new Chaos(platform).onePlatform(ledger, summary, plan.scenarios());
            } catch (Console.Failure failure) {
                System.err.println("[pagora] ERROR: " + failure.getMessage());
            } finally {
                platform.supervisor.stop("chaos-check", 5);
                platform.down();
            }
        }
        Console.banner("chaos: one line per scenario (details in %s/<time>-<ledger>/)".formatted(base.layout.chaos()));
        List<String> lines = readLines(summary);
        lines.forEach(System.out::println);
        long verdicts = lines.stream().filter(line -> line.startsWith("CHAOS ")).count();
        long expected = (long) plan.scenarios().size() * plan.ledgers().size();
        if (verdicts != expected) {
            Console.warn("only %d of %d scenarios produced a verdict", verdicts, expected);
            return 1;
        }
        return lines.stream().anyMatch(line -> line.endsWith(" FAIL")) ? 1 : 0;
    }

    /**
     * The demo's simulated banks (most accept, some refuse, a few never answer) with funds for the whole run: all
     * customers together hold R$ 80 million (k6's deliberate NSF payments, one centavo above everything funded, stay
     * below payment-api's maximum amount), every reserve CHAOS_RESERVE_FUNDING (k6 pays from one bank's customers,
     * three quarters to other banks: with the demo's reserves the later scenarios were refused INSUFFICIENT_RESERVE),
     * and reporting CHAOS_MED_REPORT_RATE of their customers' settled payments as fraud, so that holds, analyses and
     * refunds are in flight when a fault strikes.
     */
    static Settings chaosSettings(Settings settings, String ledger) {
        Settings chaos = settings.with("PENDING_TIMEOUT", settings.text("CHAOS_PENDING_TIMEOUT"))
                .with("RECONCILIATION_FINAL_WITHIN", settings.integer("CHAOS_FINAL_WITHIN_SECONDS") + "s")
                .with("RESERVE_FUNDING", settings.text("CHAOS_RESERVE_FUNDING"))
                .with("MED_REPORT_RATE", settings.text("CHAOS_MED_REPORT_RATE"));
        long customers = (long) settings.integer("BANKS") * settings.integer("CUSTOMERS_PER_BANK");
        chaos = BenchRun.fundedForTheWholeRun(chaos, 8_000_000_000L / Math.max(1, customers));
        return ledger.equals("postgresql") ? chaos.without("TIGERBEETLE_BIN") : chaos;
    }

    private void onePlatform(String ledger, Path summary, List<String> scenarios) {
        platform.removeData("chaos");
        if (scenarios.contains("kafka-outage")) {
            if (!settings.flag("RECONCILIATION")) {
                throw Console.fail("chaos kafka-outage judges the online reconciliation: RECONCILIATION=false refused");
            }
            if (settings.integer("CHAOS_KAFKA_OUTAGE_SECONDS") <= settings.integer("CHAOS_FINAL_WITHIN_SECONDS")) {
                throw Console.fail("CHAOS_KAFKA_OUTAGE_SECONDS must exceed CHAOS_FINAL_WITHIN_SECONDS");
            }
        }
        platform.up();
        Load.seed(platform);
        Path directory =
                layout.chaos().resolve(ZonedDateTime.now(ZoneOffset.UTC).format(STAMP) + "-" + ledger);
        Platform.createDirectories(directory);
        K6 k6 = K6.require(platform, "chaos");
        int warmupSeconds = settings.integer("CHAOS_WARMUP_SECONDS");
        if (warmupSeconds > 0) {
            // Its answers sit with the scenarios' (*.answers.log): the money checks judge its payments like every
            // other.
            Console.say(
                    "warm-up: %ds at %d/s with k6 (not a scenario; its payments are checked with the first)",
                    warmupSeconds, rate());
            k6.await(k6.start(
                    "chaos-warmup-" + System.currentTimeMillis() / 1000,
                    directory.resolve("warmup.answers.log"),
                    load(warmupSeconds)));
        }
        for (String scenario : scenarios) {
            try {
                scenario(k6, ledger, directory, scenario);
            } catch (Console.Failure failure) {
                Console.warn("chaos %s stopped early: %s", scenario, failure.getMessage());
            }
            List<String> verdict = readLines(directory.resolve(scenario + ".check.txt")).stream()
                    .filter(line -> line.startsWith("CHAOS "))
                    .toList();
            write(
                    summary,
                    verdict.isEmpty()
                            ? "CHAOS %s ledger=%s no verdict FAIL\n".formatted(scenario, ledger)
                            : String.join("\n", verdict) + "\n",
                    true);
        }
    }

    /**
     * k6's settings for chaos: SETTLE_TIMEOUT short (chaos-check, not k6, waits for the outcomes and judges them),
     * thresholds out of reach (faults make requests fail on purpose).
     */
    private Map<String, String> load(int seconds) {
        Map<String, String> variables = new LinkedHashMap<>();
        variables.put("DURATION", seconds + "s");
        variables.put("RATE", Integer.toString(rate()));
        variables.put("SETTLE_TIMEOUT", "1s");
        variables.put("ACCEPT_P95_MS", "600000");
        variables.put("ACCEPT_P99_MS", "600000");
        variables.put("ERROR_RATE_MAX", "1");
        return variables;
    }

    /** The load's rate: CHAOS_RATE, or CHAOS_SCALED_RATE on the scaled platform (its fourteen processes share the cores). */
    private int rate() {
        return settings.integer(platform.runningTopology().scaled() ? "CHAOS_SCALED_RATE" : "CHAOS_RATE");
    }

    static int faultSeconds(String scenario, Settings settings) {
        int seconds = FAULT_SECONDS.get(scenario);
        return seconds >= 0 ? seconds : settings.integer("CHAOS_KAFKA_OUTAGE_SECONDS") + 20;
    }

    /** Load, fault, load, check: the check starts the moment the fault ends. */
    private void scenario(K6 k6, String ledger, Path directory, String scenario) {
        platform.supervisor.stop("k6", 10); // what an earlier scenario that died left running
        platform.supervisor.stop("chaos-check", 5);
        int rate = rate();
        int before = settings.integer("CHAOS_BEFORE_SECONDS");
        int after = settings.integer("CHAOS_AFTER_SECONDS");
        int loadSeconds = before + faultSeconds(scenario, settings) + after;
        Console.banner("chaos %s on the %s ledger: %ds of load at %d/s, the fault after %ds"
                .formatted(scenario, ledger, loadSeconds, rate, before));
        Process load = k6.start(
                "chaos-" + scenario + "-" + System.currentTimeMillis() / 1000,
                directory.resolve(scenario + ".answers.log"),
                load(loadSeconds));
        Supervisor.sleep(before * 1000L);
        long faultStartMs = System.currentTimeMillis();
        fault(ledger, scenario, directory);
        long faultEndMs = System.currentTimeMillis();
        Console.say("fault over: measuring recovery (local-runtime chaos-check)");
        Path done = directory.resolve(scenario + ".done");
        List<String> arguments = new ArrayList<>(List.of(
                "--scenario=" + scenario,
                "--answers-dir=" + directory,
                "--accounts=" + layout.accounts(),
                "--fault-start-epoch-ms=" + faultStartMs,
                "--fault-end-epoch-ms=" + faultEndMs,
                "--load-done-file=" + done,
                "--final-wait-seconds=" + settings.integer("CHAOS_FINAL_WAIT_SECONDS"),
                "--offered-payments=" + (long) rate * (before + after),
                "--before-seconds=" + before,
                "--bootstrap-servers=" + platform.kafkaBootstrap(),
                "--jdbc-url=" + Postgres.JDBC_URL,
                "--db-user=" + Postgres.USER,
                "--db-password=" + Postgres.PASSWORD,
                "--ledger-backend=" + ledger,
                "--tigerbeetle-addresses=" + platform.tigerBeetleAddresses()));
        if (scenario.equals("kafka-outage")) {
            arguments.addAll(List.of(
                    "--planted-file=" + directory.resolve(scenario + ".planted"),
                    "--reporting-url=" + platform.serviceUrl("reporting-service", ""),
                    "--tls-dir=" + layout.tls()));
        }
        Path verdict = directory.resolve(scenario + ".check.txt");
        Process check = platform.tools.start(
                List.of("-Xmx1g", "--enable-native-access=ALL-UNNAMED"),
                "chaos-check",
                arguments,
                verdict,
                layout.log("chaos-check"));
        Postgres.write(platform.supervisor.pidFile("chaos-check"), Long.toString(check.pid()));
        if (!load.isAlive()) {
            Console.warn("the fault outlasted its %ds budget: no load after it", faultSeconds(scenario, settings));
        }
        k6.await(load); // its thresholds are not the verdict: faults make requests fail on purpose
        write(done, "", false);
        try {
            check.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Console.fail("interrupted while chaos-check ran");
        }
        Supervisor.delete(platform.supervisor.pidFile("chaos-check"));
        readLines(verdict).forEach(System.out::println);
        write(directory.resolve("chaos.txt"), String.join("\n", readLines(verdict)) + "\n", true);
    }

    private void fault(String ledger, String scenario, Path directory) {
        switch (scenario) {
            case "kill-clearing-twice" -> {
                killAndRestart("clearing-service");
                Supervisor.sleep(5000);
                killAndRestart("clearing-service");
            }
            case "kill-reporting" -> killAndRestart("reporting-service");
            case "kill-payment-api" -> killAndRestart("payment-api");
            case "kafka-restart" -> {
                Console.say("FAULT: restarting the Kafka broker");
                platform.supervisor.stop("kafka", 60);
                platform.kafka.startKafka();
            }
            case "ledger-unavailable" -> ledgerUnavailable(ledger);
            case "postgres-restart" -> {
                Console.say("FAULT: restarting PostgreSQL");
                platform.postgres.stop();
                platform.postgres.start();
            }
            case "poison" -> {
                Console.say("FAULT: malformed records into every consumed topic (local-runtime poison)");
                if (platform.tools.run(
                                List.of(),
                                "poison",
                                List.of("--bootstrap-servers=" + platform.kafkaBootstrap()),
                                null,
                                layout.log("chaos-check"))
                        != 0) {
                    throw Console.fail("the poison producer failed (log: %s)", layout.log("chaos-check"));
                }
            }
            case "bank-down" -> {
                if (!platform.services.participantsAnswer()) {
                    throw Console.fail(
                            "chaos bank-down needs the banks as participants (RECEIVING_BANKS=participants)");
                }
                List<Long> banks = Settings.seededIspbs(settings.integer("BANKS"));
                String down = "%08d".formatted(banks.getLast());
                Console.say(
                        "FAULT: bank %s down (reads and answers nothing) for %ds, longer than the pending timeout %s:"
                                + " its payments expire, the other banks keep settling",
                        down, settings.integer("CHAOS_BANK_DOWN_SECONDS"), settings.text("CHAOS_PENDING_TIMEOUT"));
                platform.services.bankSimulator(down, "down");
                Supervisor.sleep(settings.integer("CHAOS_BANK_DOWN_SECONDS") * 1000L);
                platform.services.bankSimulator(down, "up");
            }
            case "slow-bank" -> {
                Console.say(
                        "FAULT: the receiving bank answers after %s (pending timeout %s) for %ds",
                        settings.text("CHAOS_SLOW_BANK_LATENCY"),
                        settings.text("CHAOS_PENDING_TIMEOUT"),
                        settings.integer("CHAOS_SLOW_BANK_SECONDS"));
                if (platform.services.participantsAnswer()) {
                    platform.services.bankSimulator(
                            "all", "slow?ms=" + ServiceProcesses.millisOf(settings.text("CHAOS_SLOW_BANK_LATENCY")));
                    Supervisor.sleep(settings.integer("CHAOS_SLOW_BANK_SECONDS") * 1000L);
                    platform.services.bankSimulator("all", "up");
                } else {
                    restartClearing(settings.text("CHAOS_SLOW_BANK_LATENCY"));
                    Supervisor.sleep(settings.integer("CHAOS_SLOW_BANK_SECONDS") * 1000L);
                    restartClearing(settings.text("BANK_ANSWER_LATENCY"));
                }
            }
            case "kafka-outage" -> kafkaOutage(directory);
            case "kill-tigerbeetle-replica" ->
                killForAWhile(tigerBeetleBackup(), platform.tigerBeetle::startTigerBeetle);
            case "kill-tigerbeetle-primary" ->
                killForAWhile(tigerBeetlePrimary(), platform.tigerBeetle::startTigerBeetle);
            case "pause-tigerbeetle-primary" -> pauseTigerBeetlePrimary();
            case "kill-kafka-broker" -> killForAWhile(kafkaNode(false), platform.kafka::startKafka);
            case "kill-kafka-controller" -> killForAWhile(kafkaNode(true), platform.kafka::startKafka);
            case "kill-payment-api-instance" -> killForAWhile("payment-api-2", this::startServices);
            case "kill-clearing-instance" -> killForAWhile("clearing-service-2", this::startServices);
            case "kill-reporting-instance" -> killForAWhile(reconciliationHolder(), this::startServices);
            default -> throw Console.fail("no fault for scenario %s", scenario);
        }
    }

    /**
     * One process of the scaled platform killed -9 (as its machine lost) and kept down for CHAOS_NODE_DOWN_SECONDS while
     * the others carry the load, then started again on its own data, where it catches up.
     */
    private void killForAWhile(String name, Runnable restart) {
        if (!platform.supervisor.alive(name)) {
            throw Console.fail("%s is not running", name);
        }
        int downSeconds = settings.integer("CHAOS_NODE_DOWN_SECONDS");
        Console.say(
                "FAULT: kill -9 %s (pid %d), down for %ds",
                name, platform.supervisor.pid(name).orElseThrow(), downSeconds);
        platform.supervisor.signal(name, "KILL");
        Supervisor.waitUntil(() -> !platform.supervisor.alive(name), 30_000);
        Supervisor.sleep(downSeconds * 1000L);
        Console.say("starting %s again", name);
        restart.run();
    }

    private void startServices() {
        platform.services.startServices(platform.runningLedger());
    }

    /**
     * The primary frozen (SIGSTOP) for CHAOS_LEDGER_DOWN_SECONDS, longer than the client's 10 s request deadline: its
     * sockets stay open, it answers nothing; the two others elect a new primary. Thawed, it rejoins as a backup.
     */
    private void pauseTigerBeetlePrimary() {
        String primary = tigerBeetlePrimary();
        int seconds = settings.integer("CHAOS_LEDGER_DOWN_SECONDS");
        Console.say("FAULT: TigerBeetle primary %s frozen (SIGSTOP) for %ds", primary, seconds);
        platform.supervisor.signal(primary, "STOP");
        Supervisor.sleep(seconds * 1000L);
        platform.supervisor.signal(primary, "CONT");
    }

    private String tigerBeetlePrimary() {
        return TigerBeetleRoles.primary(
                platform.runningTopology().tigerBeetle().stream()
                        .map(replica -> layout.log(replica.name()))
                        .toList(),
                platform.runningTopology().tigerBeetle().stream()
                        .map(Topology.Instance::name)
                        .toList());
    }

    private String tigerBeetleBackup() {
        String primary = tigerBeetlePrimary();
        return platform.runningTopology().tigerBeetle().stream()
                .map(Topology.Instance::name)
                .filter(name -> !name.equals(primary))
                .reduce((first, second) -> second)
                .orElseThrow();
    }

    /** The KRaft quorum's leader (the active controller), or a node that is not it. */
    private String kafkaNode(boolean controller) {
        int leader;
        try {
            leader = KafkaQuorum.leaderId(platform.kafkaBootstrap());
        } catch (Exception e) {
            throw Console.fail("could not ask Kafka for its controller: %s", e.getMessage());
        }
        return platform.runningTopology().kafka().stream()
                .filter(node -> (node.index() == leader) == controller)
                .map(Topology.Instance::name)
                .reduce((first, second) -> second)
                .orElseThrow();
    }

    /** The reporting instance that runs the online reconciliation (its pagora_reconciliation_leader gauge says 1). */
    private String reconciliationHolder() {
        List<String> holders = platform.services.instancesOf("reporting-service").stream()
                .filter(platform.services::holdsReconciliationLease)
                .map(Topology.Instance::name)
                .toList();
        if (holders.size() != 1) {
            throw Console.fail("expected one reporting instance holding the reconciliation lease, found %s", holders);
        }
        return holders.getFirst();
    }

    /** kill -9 (no shutdown hook, no offset commit, mid-batch under load), then the same service started again. */
    private void killAndRestart(String service) {
        if (!platform.supervisor.alive(service)) {
            throw Console.fail("%s is not running", service);
        }
        Console.say(
                "FAULT: kill -9 %s (pid %d)",
                service, platform.supervisor.pid(service).orElseThrow());
        platform.supervisor.signal(service, "KILL");
        Supervisor.waitUntil(() -> !platform.supervisor.alive(service), 30_000);
        platform.services.startServices(platform.runningLedger());
    }

    /** A graceful stop of clearing, then a start whose simulated bank answers after the given latency. */
    private void restartClearing(String latency) {
        platform.supervisor.stop("clearing-service", 60);
        platform.with(settings.with("BANK_ANSWER_LATENCY", latency)).services.startServices(platform.runningLedger());
    }

    /**
     * The broker down for longer than reporting's final-within while k6 keeps paying, and meanwhile a wrong row
     * planted in the read model (local-runtime chaos-plant: a SETTLED payment the ledger never saw). chaos-check
     * then asks reporting's reconciliation to have judged the outage's payments and reported the planted row.
     */
    private void kafkaOutage(Path directory) {
        int outageSeconds = settings.integer("CHAOS_KAFKA_OUTAGE_SECONDS");
        Console.say(
                "FAULT: Kafka down for %ds (reporting's final-within: %ds), a wrong read-model row planted",
                outageSeconds, settings.integer("CHAOS_FINAL_WITHIN_SECONDS"));
        long started = System.currentTimeMillis();
        platform.supervisor.stop("kafka", 60);
        int planted = platform.tools.run(
                List.of(),
                "chaos-plant",
                List.of(
                        "--out=" + directory.resolve("kafka-outage.planted"),
                        "--accounts=" + layout.accounts(),
                        "--reporting-url=" + platform.serviceUrl("reporting-service", ""),
                        "--tls-dir=" + layout.tls(),
                        "--final-within-seconds=" + settings.integer("CHAOS_FINAL_WITHIN_SECONDS"),
                        "--jdbc-url=" + Postgres.JDBC_URL,
                        "--db-user=" + Postgres.USER,
                        "--db-password=" + Postgres.PASSWORD),
                null,
                layout.log("chaos-check"));
        if (planted != 0) {
            platform.kafka.startKafka();
            throw Console.fail("chaos-plant failed (log: %s)", layout.log("chaos-check"));
        }
        Supervisor.sleep(Math.max(0, outageSeconds * 1000L - (System.currentTimeMillis() - started)));
        platform.kafka.startKafka();
    }

    /**
     * TigerBeetle: the server frozen (SIGSTOP) and thawed (SIGCONT). The PostgreSQL ledger: its tables locked
     * (ACCESS EXCLUSIVE) in one transaction, so every ledger statement waits while the rest of PostgreSQL works.
     */
    private void ledgerUnavailable(String ledger) {
        int seconds = settings.integer("CHAOS_LEDGER_DOWN_SECONDS");
        if (ledger.equals("tigerbeetle")) {
            Console.say("FAULT: TigerBeetle frozen (SIGSTOP) for %ds", seconds);
            platform.supervisor.signal("tigerbeetle", "STOP");
            Supervisor.sleep(seconds * 1000L);
            platform.supervisor.signal("tigerbeetle", "CONT");
            return;
        }
        if (!platform.postgres.mode().startsWith("debian")) {
            throw Console.fail("ledger-unavailable on the PostgreSQL ledger needs Debian's PostgreSQL (psql); the"
                    + " embedded one has none");
        }
        Console.say("FAULT: the PostgreSQL ledger's tables locked for %ds", seconds);
        // The tables are locked one after another, and a ledger transaction may hold one while it waits for another:
        // PostgreSQL then aborts one of the two (deadlock detected). When it aborts the lock, nothing was held for
        // long and the fault has not begun: take the locks again, a bounded number of times.
        Path errors = layout.state("chaos-ledger-lock.err");
        for (int attempt = 1; attempt <= LOCK_ATTEMPTS_MAX; attempt++) {
            write(errors, "", false);
            int status = platform.postgres.psql(
                    Postgres.DATABASE,
                    "BEGIN; LOCK TABLE ledger.accounts, ledger.transfers,"
                            + " ledger.failed_transfer_ids IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(" + seconds
                            + "); COMMIT;",
                    errors);
            if (status == 0) {
                return;
            }
            String error = String.join("\n", readLines(errors));
            if (!error.contains("deadlock detected")) {
                throw Console.fail("could not lock the ledger's tables: %s", error);
            }
            Console.warn(
                    "locking the ledger's tables met a ledger transaction in a deadlock, and PostgreSQL aborted the"
                            + " lock (attempt %d of %d)",
                    attempt, LOCK_ATTEMPTS_MAX);
        }
        throw Console.fail("could not lock the ledger's tables: a deadlock each of %d times", LOCK_ATTEMPTS_MAX);
    }

    public static List<String> readLines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException unreadable) {
            return List.of();
        }
    }

    static void write(Path file, String text, boolean append) {
        try {
            Files.writeString(
                    file,
                    text,
                    append
                            ? new StandardOpenOption[] {StandardOpenOption.CREATE, StandardOpenOption.APPEND}
                            : new StandardOpenOption[] {
                                StandardOpenOption.CREATE,
                                StandardOpenOption.TRUNCATE_EXISTING,
                                StandardOpenOption.WRITE
                            });
        } catch (IOException e) {
            throw Console.fail("could not write %s: %s", file, e.getMessage());
        }
    }
}
