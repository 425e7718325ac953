package io.pagora.local.launcher.commands;

import io.pagora.local.cli.Options;
import io.pagora.local.launcher.Console;
import java.util.ArrayList;
import java.util.List;

/**
 * The bench command's options ({@code infra/local/pagora bench --help}). A null value is one not given: the bench
 * tool's own default then holds (written once, in its options record); only what was typed is handed over, each
 * value checked here, before any platform starts. The overload run floods at twice the rate unless told otherwise.
 */
record BenchRunOptions(
        String ledger,
        String mode,
        Double ratePerSecond,
        Integer batchSize,
        Integer warmupSeconds,
        Integer windowSeconds,
        Integer drainSeconds,
        boolean findMax,
        Double findMaxFactor,
        boolean overload,
        Double overloadFactor,
        Double secondBankRatePerSecond,
        Double keyShare,
        Integer endUsers) {

    static final double OVERLOAD_FACTOR = 2;

    static BenchRunOptions parse(List<String> arguments, String defaultLedger) {
        Options options = new Options("bench", arguments);
        String ledger = options.string("ledger", defaultLedger);
        String mode = options.string("mode", null);
        Double rate = options.decimalOrNull("rate");
        Integer batchSize = options.integerOrNull("batch-size");
        Integer warmup = options.integerOrNull("warmup");
        Integer window = options.integerOrNull("window");
        Integer drain = options.integerOrNull("drain-seconds");
        boolean findMax = options.flag("find-max");
        Double findMaxFactor = options.decimalOrNull("find-max-factor");
        Double overloadFactor = options.decimalOrNull("overload-factor");
        Double secondBankRate = options.decimalOrNull("second-bank-rate");
        Double keyShare = options.decimalOrNull("key-share");
        if (keyShare != null && !(keyShare >= 0 && keyShare <= 1)) {
            throw Console.fail("--key-share is a share in 0..1, not %s", keyShare);
        }
        Integer endUsers = options.integerOrNull("end-users");
        if (mode != null && !List.of("bulk", "single", "lookup").contains(mode)) {
            throw Console.fail("--mode is bulk, single or lookup, not '%s'", mode);
        }
        boolean overload = options.flag("overload") || overloadFactor != null || secondBankRate != null;
        options.rejectUnknown();
        return new BenchRunOptions(
                ledger,
                mode,
                rate,
                batchSize,
                warmup,
                window,
                drain,
                findMax,
                findMaxFactor,
                overload,
                overload && overloadFactor == null ? Double.valueOf(OVERLOAD_FACTOR) : overloadFactor,
                secondBankRate,
                keyShare,
                endUsers);
    }

    /** The bench tool's own options, in its names, for what was given. */
    List<String> benchArguments() {
        List<String> arguments = new ArrayList<>();
        add(arguments, "mode", mode);
        add(arguments, "rate", ratePerSecond);
        add(arguments, "batch-size", batchSize);
        add(arguments, "warmup-seconds", warmupSeconds);
        add(arguments, "window-seconds", windowSeconds);
        add(arguments, "drain-seconds", drainSeconds);
        if (findMax) {
            arguments.add("--find-max=true");
        }
        add(arguments, "find-max-factor", findMaxFactor);
        add(arguments, "overload-factor", overloadFactor);
        add(arguments, "second-bank-rate", secondBankRatePerSecond);
        add(arguments, "key-share", keyShare);
        add(arguments, "end-users", endUsers);
        return List.copyOf(arguments);
    }

    private static void add(List<String> arguments, String name, Object value) {
        if (value != null) {
            arguments.add("--" + name + "="
                    + (value instanceof Double number && number == Math.rint(number) && Math.abs(number) < 1e15
                            ? Long.toString(number.longValue())
                            : value));
        }
    }
}
