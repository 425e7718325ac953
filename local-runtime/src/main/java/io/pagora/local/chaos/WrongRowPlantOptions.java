package io.pagora.local.chaos;

import io.pagora.local.cli.Options;
import io.pagora.local.readside.ReadSide;
import io.pagora.local.tls.LocalTls;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/** The wrong-row plant's command line (chaos-plant), read once: its defaults are written here. */
record WrongRowPlantOptions(
        Path out,
        Path accounts,
        URI reporting,
        LocalTls tls,
        Duration finalWithin,
        String schema,
        ReadSide.Settings readSide) {

    static WrongRowPlantOptions parse(String[] args) {
        Options options = new Options("chaos-plant", args);
        Path out = options.path("out");
        Path accounts = options.path("accounts");
        URI reporting = LocalTls.requireHttps(URI.create(options.required("reporting-url")));
        LocalTls tls = LocalTls.of(options);
        Duration finalWithin = Duration.ofSeconds(options.longValue("final-within-seconds", 60));
        String schema = options.string("reporting-schema", "reporting");
        ReadSide.Settings readSide = ReadSide.Settings.from(options);
        options.rejectUnknown();
        return new WrongRowPlantOptions(out, accounts, reporting, tls, finalWithin, schema, readSide);
    }
}
