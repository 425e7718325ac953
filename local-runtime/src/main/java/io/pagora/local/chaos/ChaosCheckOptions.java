package io.pagora.local.chaos;

import io.pagora.local.cli.Options;
import io.pagora.local.readside.ReadSide;
import io.pagora.local.tls.LocalTls;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/** The chaos check's command line (chaos-check), read once: its defaults are written here. */
record ChaosCheckOptions(
        String scenario,
        Path answersDir,
        Path accounts,
        Instant faultStart,
        Instant faultEnd,
        Path loadDone,
        Duration finalWait,
        Duration loadWait,
        long offeredPayments,
        Instant loadStart,
        String bootstrap,
        String schema,
        String plantedFile,
        URI reporting,
        LocalTls tls,
        ReadSide.Settings readSide) {

    static ChaosCheckOptions parse(String[] args) {
        Options options = new Options("chaos-check", args);
        String scenario = options.required("scenario");
        Path answersDir = options.path("answers-dir");
        Path accounts = options.path("accounts");
        Instant faultStart = Instant.ofEpochMilli(options.requiredLong("fault-start-epoch-ms"));
        Instant faultEnd = Instant.ofEpochMilli(options.requiredLong("fault-end-epoch-ms"));
        Path loadDone = options.path("load-done-file");
        Duration finalWait = Duration.ofSeconds(options.integer("final-wait-seconds", 180));
        Duration loadWait = Duration.ofSeconds(options.integer("load-wait-seconds", 600));
        long offeredPayments = options.requiredLong("offered-payments");
        // When the scenario's load began: the stretch before the fault gives settlement's steady rate.
        Instant loadStart = faultStart.minusSeconds(options.integer("before-seconds", 0));
        String bootstrap = options.string("bootstrap-servers", "127.0.0.1:9092");
        String schema = options.string("reporting-schema", "reporting");
        String plantedFile = options.string("planted-file", "");
        URI reporting = URI.create(options.string("reporting-url", "https://127.0.0.1:8082"));
        LocalTls tls = plantedFile.isBlank() ? null : LocalTls.of(options);
        ReadSide.Settings readSide = ReadSide.Settings.from(options);
        options.rejectUnknown();
        return new ChaosCheckOptions(
                scenario,
                answersDir,
                accounts,
                faultStart,
                faultEnd,
                loadDone,
                finalWait,
                loadWait,
                offeredPayments,
                loadStart,
                bootstrap,
                schema,
                plantedFile,
                reporting,
                tls,
                readSide);
    }
}
