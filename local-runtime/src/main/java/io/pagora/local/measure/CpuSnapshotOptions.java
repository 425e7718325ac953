package io.pagora.local.measure;

import io.pagora.local.cli.Options;
import java.nio.file.Path;
import java.util.Map;

/** The CPU snapshot's command line (cpu), read once: its defaults are written here. */
public record CpuSnapshotOptions(Map<String, Long> components, long clockTicksPerSecond, Path out) {

    public static CpuSnapshotOptions parse(String[] args) {
        Options options = new Options("cpu", args);
        Map<String, Long> components = ProcessCpu.components(options.required("components"));
        long clockTicksPerSecond = options.longValue("clock-ticks", 100);
        Path out = options.path("out");
        options.rejectUnknown();
        return new CpuSnapshotOptions(components, clockTicksPerSecond, out);
    }
}
