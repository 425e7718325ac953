package io.pagora.local.bench;

import io.pagora.local.cli.Options;
import java.nio.file.Path;

/** Bench-compare's command line (bench-compare), read once: its defaults are written here. */
record BenchHtmlOptions(Path tigerBeetle, Path postgresql, Path out) {

    static BenchHtmlOptions parse(String[] args) {
        Options options = new Options("bench-compare", args);
        Path tigerBeetle = options.path("tigerbeetle");
        Path postgresql = options.path("postgresql");
        Path out = options.path("out");
        options.rejectUnknown();
        return new BenchHtmlOptions(tigerBeetle, postgresql, out);
    }
}
