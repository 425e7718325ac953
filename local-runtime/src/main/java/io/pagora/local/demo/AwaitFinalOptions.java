package io.pagora.local.demo;

import io.pagora.local.cli.Options;
import io.pagora.local.readside.ReadSide;
import io.pagora.local.runfiles.AcceptedPayments;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Await-final's command line (await-final), read once: its defaults are written here. */
record AwaitFinalOptions(
        List<Path> accepted, Duration finalWait, String schema, String bootstrap, ReadSide.Settings readSide) {

    static AwaitFinalOptions parse(String[] args) {
        Options options = new Options("await-final", args);
        List<Path> accepted = AcceptedPayments.files(options.required("accepted"));
        Duration finalWait = Duration.ofSeconds(options.longValue("final-wait-seconds", 120));
        String schema = options.string("reporting-schema", "reporting");
        String bootstrap = options.string("bootstrap-servers", "127.0.0.1:9092");
        ReadSide.Settings readSide = ReadSide.Settings.from(options);
        options.rejectUnknown();
        return new AwaitFinalOptions(accepted, finalWait, schema, bootstrap, readSide);
    }
}
