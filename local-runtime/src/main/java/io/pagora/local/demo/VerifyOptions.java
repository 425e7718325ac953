package io.pagora.local.demo;

import io.pagora.local.checks.LedgerAccountSet;
import io.pagora.local.cli.Options;
import io.pagora.local.readside.ReadSide;
import io.pagora.local.runfiles.AcceptedPayments;
import java.time.Duration;

/** Verify's command line (verify), read once: its defaults are written here. */
record VerifyOptions(Verify.Inputs inputs, String bootstrap, ReadSide.Settings readSide) {

    static VerifyOptions parse(String[] args) {
        Options options = new Options("verify", args);
        Verify.Inputs inputs = new Verify.Inputs(
                options.path("accounts"),
                AcceptedPayments.files(options.string("accepted", "")),
                options.string("reporting-schema", "reporting"),
                options.string("participants-schema", "payment_api"),
                Duration.ofSeconds(options.longValue("in-flight-seconds", 60)),
                Duration.ofSeconds(options.longValue("quiet-seconds", 3)),
                new LedgerAccountSet.Bound(
                        LedgerAccountSet.Bound.DEFAULT.pageSize(),
                        options.integer("account-pages-max", LedgerAccountSet.Bound.DEFAULT.pagesMax())));
        String bootstrap = options.string("bootstrap-servers", "127.0.0.1:9092");
        ReadSide.Settings readSide = ReadSide.Settings.from(options);
        options.rejectUnknown();
        return new VerifyOptions(inputs, bootstrap, readSide);
    }
}
