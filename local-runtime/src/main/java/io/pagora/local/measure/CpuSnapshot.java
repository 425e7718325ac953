package io.pagora.local.measure;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The CPU seconds each platform component has used so far, one {@code name seconds} line per component, for
 * the demo report's CPU-per-payment table (two snapshots: before and after the measured run).
 *
 * <pre>
 *   java -jar local-runtime.jar cpu --components=payment-api=123,postgresql=456 [--clock-ticks=100] --out=FILE
 * </pre>
 */
public final class CpuSnapshot {

    private CpuSnapshot() {}

    public static void main(String[] args) throws Exception {
        CpuSnapshotOptions options = CpuSnapshotOptions.parse(args);
        List<String> lines = new ArrayList<>();
        new ProcessCpu(options.clockTicksPerSecond())
                .seconds(options.components())
                .forEach((name, seconds) -> lines.add(String.format(Locale.ROOT, "%s %.2f", name, seconds)));
        Files.write(options.out(), lines, StandardCharsets.UTF_8);
    }

    /** Reads a snapshot written by {@link #main}. */
    public static Map<String, Double> read(Path file) throws Exception {
        Map<String, Double> seconds = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] fields = line.strip().split(" ");
            if (fields.length == 2) {
                seconds.put(fields[0], Double.parseDouble(fields[1]));
            }
        }
        return seconds;
    }
}
