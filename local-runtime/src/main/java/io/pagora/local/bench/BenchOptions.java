package io.pagora.local.bench;

import io.pagora.ledger.adapter.Ledgers;
import io.pagora.local.cli.Options;
import io.pagora.local.load.LoadGenerator;
import io.pagora.local.measure.DiskUsage;
import io.pagora.local.measure.ProcessCpu;
import io.pagora.local.tls.LocalTls;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The bench tool's command line (bench), read once: its defaults are written here. */
record BenchOptions(
        Path accountsFile,
        Path outDir,
        List<URI> apis,
        URI api,
        URI reporting,
        LocalTls tls,
        String jdbcUrl,
        String user,
        String password,
        Bench.Settings settings,
        int inFlightMax,
        double overloadFactor,
        double secondBankRatePerSecond,
        String bootstrap,
        long clockTicksPerSecond,
        Ledgers.Settings ledgerSettings,
        Map<String, Path> dataDirs,
        double keyShare,
        boolean lookups,
        int endUsers) {

    static BenchOptions parse(String[] args) {
        Options options = new Options("bench", args);
        Path accountsFile = options.path("accounts");
        Path outDir = options.path("out-dir");
        // payment-api's instances, comma-separated (the scaled platform's two): the load's banks are spread over them.
        List<URI> apis = Arrays.stream(
                        options.string("api-url", "https://127.0.0.1:8080").split(","))
                .map(URI::create)
                .toList();
        URI api = apis.getFirst();
        URI reporting = URI.create(options.string("reporting-url", "https://127.0.0.1:8082"));
        LocalTls tls = LocalTls.of(options);
        String jdbcUrl = options.string("jdbc-url", "jdbc:postgresql://127.0.0.1:5432/pagora");
        String user = options.string("db-user", "pagora");
        String password = options.string("db-password", "pagora");
        String mode = options.string("mode", "bulk");
        // Look-ups only (LookupBench): its calls are batches of --batch-size look-ups, one a call at 1.
        boolean lookups = mode.equals("lookup");
        Bench.Settings settings = new Bench.Settings(
                options.string("ledger-backend", "postgresql"),
                lookups ? LoadGenerator.Mode.BULK : LoadGenerator.Mode.valueOf(mode.toUpperCase(Locale.ROOT)),
                options.decimal("rate", 4000),
                options.integer("batch-size", 500),
                options.integer("warmup-seconds", 60),
                options.integer("window-seconds", 300),
                options.integer("drain-seconds", 180),
                options.flag("find-max"),
                options.decimal("find-max-factor", 1.25),
                // The share of payments the receiving banks are set to accept (the launcher's BANK_ACCEPT_RATE):
                // the gate expects that share of the offered rate to settle.
                options.decimal("bank-accept-rate", 1.0),
                ProcessCpu.components(options.required("components")));
        int inFlightMax = options.integer("in-flight-max", 4096);
        double overloadFactor = options.decimal("overload-factor", 0);
        double secondBankRatePerSecond = options.decimal("second-bank-rate", 100);
        String bootstrap = options.string("bootstrap-servers", "127.0.0.1:9092");
        long clockTicksPerSecond = options.longValue("clock-ticks", 100);
        Ledgers.Settings ledgerSettings = new Ledgers.Settings(
                settings.ledger(),
                options.string("tigerbeetle-addresses", "127.0.0.1:3000"),
                0,
                Duration.ofSeconds(30),
                16);
        Map<String, Path> dataDirs = DiskUsage.directories(options.string("data-dirs", ""));
        // The payments whose payee is named by its PIX key, each after a look-up (docs/directory.md).
        double keyShare = options.decimal("key-share", 0);
        if (!(keyShare >= 0 && keyShare <= 1)) {
            throw new IllegalArgumentException("--key-share in 0..1: " + keyShare);
        }
        // The end users look-ups are made for, in turn: each one's bucket sees a few a run, as a bank's customers do.
        int endUsers = options.integer("end-users", 200_000);
        options.rejectUnknown();
        return new BenchOptions(
                accountsFile,
                outDir,
                apis,
                api,
                reporting,
                tls,
                jdbcUrl,
                user,
                password,
                settings,
                inFlightMax,
                overloadFactor,
                secondBankRatePerSecond,
                bootstrap,
                clockTicksPerSecond,
                ledgerSettings,
                dataDirs,
                keyShare,
                lookups,
                endUsers);
    }
}
