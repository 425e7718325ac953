package io.pagora.local.launcher.commands;

import io.pagora.local.launcher.Console;
import io.pagora.local.launcher.Settings;
import io.pagora.local.launcher.Supervisor;
import io.pagora.local.launcher.platform.Platform;
import io.pagora.local.launcher.platform.Postgres;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code bench}: per ledger, a fresh platform, seeded with every bank and customer funded for the whole run, and
 * local-runtime's Bench (constant offered rate, warm-up, measured window, drain, invariant checks), which writes
 * {@code var/bench/<time>-<ledger>/result.json}. With both ledgers, the two results side by side.
 */
public final class BenchRun {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    private static final String[][] COMPARED = {
        {"settled/s", "settled_per_s"}, {"accept p99 ms", "accept_p99_ms"},
        {"accept→settled p99 ms", "accept_to_settled_p99_ms"}, {"read-model lag p99 ms", "read_model_lag_p99_ms"},
        {"CPU µs/payment", "cpu_us_per_payment"}
    };

    /** The command line: which ledgers, Bench's own options, and whether it is the overload run. */
    record Plan(List<String> ledgers, List<String> benchOptions, boolean overload, boolean lookups) {}

    private BenchRun() {}

    static Plan plan(List<String> arguments, String defaultLedger) {
        BenchRunOptions options = BenchRunOptions.parse(arguments, defaultLedger);
        return new Plan(
                ledgers(options.ledger()),
                options.benchArguments(),
                options.overload(),
                "lookup".equals(options.mode()));
    }

    static List<String> ledgers(String ledger) {
        return switch (ledger) {
            case "tigerbeetle", "postgresql" -> List.of(ledger);
            case "both" -> List.of("tigerbeetle", "postgresql");
            default -> throw Console.fail("--ledger is tigerbeetle, postgresql or both, not '%s'", ledger);
        };
    }

    static void requireTigerBeetle(List<String> ledgers, Settings settings) {
        if (ledgers.contains("tigerbeetle")
                && settings.optional("TIGERBEETLE_BIN").isEmpty()) {
            throw Console.fail(
                    "--ledger=tigerbeetle needs TIGERBEETLE_BIN (a tigerbeetle %s binary)",
                    Platform.TIGERBEETLE_VERSION);
        }
    }

    /**
     * The settings a bench platform runs with: every receiving bank answers and accepts (settable), every bank's
     * reserve as large as the others' and every customer rich, none poor (the demo's seeding shows refusals for
     * funds; the bench measures settlement and must not run out of money mid-run). The overload run keeps
     * payment-api's own per-participant limits (PIX's published figures), so the flood meets a real limit.
     */
    static Settings benchSettings(Settings settings, String ledger, boolean overload) {
        return benchSettings(settings, ledger, overload, false);
    }

    /**
     * As {@link #benchSettings(Settings, String, boolean)}; the look-up run ({@code --mode=lookup}) measures what a
     * look-up costs, not the anti-scanning policy (k6's scan scenario does): unless set, each bank's look-up bucket
     * is made large enough for the whole run (the end users' buckets stay DICT's).
     */
    static Settings benchSettings(Settings settings, String ledger, boolean overload, boolean lookups) {
        Settings bench = benchSettings0(settings, ledger, overload);
        if (lookups) {
            for (String[] limit : new String[][] {
                {"DIRECTORY_PARTICIPANT_BURST", "100000000"}, {"DIRECTORY_PARTICIPANT_REFILL_PER_MINUTE", "60000000"}
            }) {
                if (System.getenv(limit[0]) == null) {
                    bench = bench.with(limit[0], limit[1]);
                }
            }
        }
        return bench;
    }

    private static Settings benchSettings0(Settings settings, String ledger, boolean overload) {
        Settings bench = settings.with("BANK_ACCEPT_RATE", settings.text("BENCH_BANK_ACCEPT_RATE"))
                .with("BANK_NO_ANSWER_RATE", settings.text("BENCH_BANK_NO_ANSWER_RATE"));
        bench = fundedForTheWholeRun(bench, 10_000_000_000L);
        if (ledger.equals("postgresql")) {
            bench = bench.without("TIGERBEETLE_BIN");
        }
        if (overload) {
            for (String[] limit : new String[][] {
                {"PARTICIPANT_BURST", "3750"},
                {"PARTICIPANT_REFILL_PER_SECOND", "750"},
                {"PARTICIPANT_CONNECTIONS_MAX", "128"}
            }) {
                if (System.getenv(limit[0]) == null) {
                    bench = bench.with(limit[0], limit[1]);
                }
            }
        }
        return bench;
    }

    /** Every reserve as large as the first, every customer funded with {@code customerFunding}, none poor. */
    static Settings fundedForTheWholeRun(Settings settings, long customerFunding) {
        return settings.with("LAST_RESERVE_FUNDING", settings.text("RESERVE_FUNDING"))
                .with("CUSTOMER_FUNDING", Long.toString(customerFunding))
                .with("POOR_CUSTOMERS", "0");
    }

    public static int run(Platform base, List<String> arguments) {
        base.refusePlainHttp("bench");
        Plan plan = plan(arguments, base.ledgerBackend());
        requireTigerBeetle(plan.ledgers(), base.settings);
        int status = 0;
        List<Path> results = new ArrayList<>();
        for (String ledger : plan.ledgers()) {
            Path latest = base.layout.bench().resolve("latest-" + ledger);
            Supervisor.delete(latest); // a failed run must not leave an earlier run's result to compare
            Platform platform = base.with(benchSettings(base.settings, ledger, plan.overload(), plan.lookups()));
            try {
                status |= one(platform, ledger, plan.benchOptions());
            } catch (Console.Failure failure) {
                System.err.println("[pagora] ERROR: " + failure.getMessage());
                status = 1;
            } finally {
                platform.down();
            }
            if (Files.exists(latest.resolve("result.json"))) {
                results.add(latest.resolve("result.json"));
            }
        }
        if (results.size() == 2) {
            System.out.print(compare(read(results.get(0)), read(results.get(1))));
            Path page = base.layout
                    .bench()
                    .resolve("compare-" + ZonedDateTime.now(ZoneOffset.UTC).format(STAMP) + ".html");
            int written = base.tools.run(
                    List.of("-Xmx256m"),
                    "bench-compare",
                    List.of("--tigerbeetle=" + results.get(0), "--postgresql=" + results.get(1), "--out=" + page),
                    null,
                    base.layout.log("bench-compare"));
            if (written == 0) {
                Console.say("TigerBeetle beside PostgreSQL, as a page: %s", page);
            } else {
                Console.warn("the comparison page was not written (log: %s)", base.layout.log("bench-compare"));
            }
        }
        return status == 0 ? 0 : 1;
    }

    private static int one(Platform platform, String ledger, List<String> options) {
        platform.removeData("the bench");
        platform.up();
        Load.seed(platform);
        Path directory = platform.layout
                .bench()
                .resolve(ZonedDateTime.now(ZoneOffset.UTC).format(STAMP) + "-" + ledger);
        Platform.createDirectories(directory);
        Console.say("bench on the %s ledger: results in %s", ledger, directory);
        List<String> arguments = new ArrayList<>(List.of(
                "--accounts=" + platform.layout.accounts(),
                "--out-dir=" + directory,
                "--api-url=" + platform.serviceUrls("payment-api"),
                "--reporting-url=" + platform.serviceUrl("reporting-service", ""),
                "--tls-dir=" + platform.layout.tls(),
                "--jdbc-url=" + Postgres.JDBC_URL,
                "--db-user=" + Postgres.USER,
                "--db-password=" + Postgres.PASSWORD,
                "--ledger-backend=" + ledger,
                "--tigerbeetle-addresses=" + platform.tigerBeetleAddresses(),
                "--clock-ticks=" + Demo.clockTicks(),
                "--bank-accept-rate=" + platform.settings.share("BANK_ACCEPT_RATE"),
                "--bootstrap-servers=" + platform.kafkaBootstrap(),
                "--components=" + platform.statusReport.componentPids(),
                "--data-dirs=tigerbeetle=" + platform.layout.var().resolve("tigerbeetle")
                        + platform.runningTopology().kafka().stream()
                                .map(node -> "," + node.name() + "="
                                        + platform.layout.var().resolve(node.name()))
                                .collect(java.util.stream.Collectors.joining())));
        arguments.addAll(options);
        Process bench = platform.tools.start(
                List.of("-Xms512m", "-Xmx12g", "--enable-native-access=ALL-UNNAMED"),
                "bench",
                arguments,
                null,
                platform.layout.log("bench"));
        int status = tee(bench, directory.resolve("bench.txt"));
        link(platform.layout.bench().resolve("latest"), directory);
        link(platform.layout.bench().resolve("latest-" + ledger), directory);
        return status;
    }

    /** Its output to this console and to {@code file}, as it comes; its exit status. */
    private static int tee(Process process, Path file) {
        try (BufferedReader lines =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter out = new PrintWriter(Files.newBufferedWriter(file))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                System.out.println(line);
                out.println(line);
                out.flush();
            }
            return process.waitFor();
        } catch (IOException e) {
            throw Console.fail("could not write %s: %s", file, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Console.fail("interrupted while the bench ran");
        }
    }

    private static void link(Path link, Path target) {
        try {
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, target);
        } catch (IOException e) {
            throw Console.fail("could not link %s: %s", link, e.getMessage());
        }
    }

    private static JsonNode read(Path result) {
        try {
            return JsonMapper.builder().build().readTree(result.toFile());
        } catch (JacksonException e) {
            throw Console.fail("cannot read %s: %s", result, e.getMessage());
        }
    }

    /** A run's platform ÷ TigerBeetle as printed ({@code 10.45×}), a dash where it has none. */
    private static String ratio(JsonNode result) {
        JsonNode ratio = result.path("platform_to_ledger_cpu_ratio");
        return ratio.isNumber() ? String.format(Locale.ROOT, "%.2f×", ratio.asDouble()) : "–";
    }

    /** TigerBeetle's result beside PostgreSQL's, with their ratio. */
    static String compare(JsonNode tigerBeetle, JsonNode postgresql) {
        StringBuilder table =
                new StringBuilder("==================== TigerBeetle vs PostgreSQL ledger ====================\n");
        table.append("  %-24s %12s %12s %7s%n".formatted("", "TigerBeetle", "PostgreSQL", "ratio"));
        for (String[] row : COMPARED) {
            double a = tigerBeetle.path(row[1]).asDouble();
            double b = postgresql.path(row[1]).asDouble();
            table.append("  %-24s %12.1f %12.1f %7.2f%n".formatted(row[0], a, b, a == 0 ? Double.NaN : b / a));
        }
        String ratio = "platform_to_ledger_cpu_ratio";
        // The PostgreSQL ledger has none: its ledger is PostgreSQL itself (docs/performance.md).
        table.append("  %-24s %12s %12s%n".formatted("platform ÷ TigerBeetle", ratio(tigerBeetle), ratio(postgresql)));
        String byComponent = "cpu_us_per_payment_by_component";
        String share = "cpu_share_by_component";
        TreeSet<String> names = new TreeSet<>();
        tigerBeetle.path(byComponent).propertyNames().forEach(names::add);
        postgresql.path(byComponent).propertyNames().forEach(names::add);
        for (String name : names) {
            table.append("    %-22s %12.1f %12.1f   share of the platform's CPU %5.1f %% %5.1f %%%n"
                    .formatted(
                            name,
                            tigerBeetle.path(byComponent).path(name).asDouble(),
                            postgresql.path(byComponent).path(name).asDouble(),
                            tigerBeetle.path(share).path(name).asDouble(),
                            postgresql.path(share).path(name).asDouble()));
        }
        table.append("  valid: TigerBeetle %s, PostgreSQL %s%n"
                .formatted(
                        tigerBeetle.path("valid").asBoolean(),
                        postgresql.path("valid").asBoolean()));
        return table.toString();
    }
}
