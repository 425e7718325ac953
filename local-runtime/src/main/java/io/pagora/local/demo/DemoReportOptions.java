package io.pagora.local.demo;

import io.pagora.local.cli.Options;
import io.pagora.local.readside.ReadSide;
import io.pagora.local.runfiles.AcceptedPayments;
import java.nio.file.Path;

/** The demo report's command line (report), read once: its defaults are written here. */
record DemoReportOptions(
        DemoReport.Inputs inputs,
        String bootstrap,
        ReadSide.Settings readSide,
        String cpuBefore,
        String cpuAfter,
        long settledBefore,
        String html) {

    static DemoReportOptions parse(String[] args) {
        Options options = new Options("report", args);
        DemoReport.Inputs inputs = new DemoReport.Inputs(
                options.path("accounts"),
                AcceptedPayments.files(options.required("accepted")),
                options.string("k6-summary", "").isBlank() ? null : Path.of(options.string("k6-summary", "")),
                options.string("reporting-schema", "reporting"));
        String bootstrap = options.string("bootstrap-servers", "127.0.0.1:9092");
        ReadSide.Settings readSide = ReadSide.Settings.from(options);
        String cpuBefore = options.string("cpu-before", "");
        String cpuAfter = options.string("cpu-after", "");
        long settledBefore = options.longValue("settled-before", 0);
        String html = options.string("html", "");
        options.rejectUnknown();
        return new DemoReportOptions(inputs, bootstrap, readSide, cpuBefore, cpuAfter, settledBefore, html);
    }
}
