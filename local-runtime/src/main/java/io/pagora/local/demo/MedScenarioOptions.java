package io.pagora.local.demo;

import io.pagora.local.cli.Options;
import io.pagora.local.tls.LocalTls;
import io.pagora.settlement.domain.BankId;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** The MED scenario's command line (med-scenario), read once: its defaults are written here. */
/**
 * @param accounts the demo's accounts file: the scenario's accounts are added to it, with their funding
 * @param answers the demo's answer log: the scenario's payments are added to it, as acknowledged
 */
record MedScenarioOptions(
        URI api, URI reporting, LocalTls tls, List<BankId> banks, int timeoutSeconds, Path accounts, Path answers) {

    static MedScenarioOptions parse(String[] args) {
        Options options = new Options("med-scenario", args);
        URI api = URI.create(options.string("api-url", "https://127.0.0.1:8080"));
        URI reporting = URI.create(options.string("reporting-url", "https://127.0.0.1:8082"));
        LocalTls tls = LocalTls.of(options);
        List<BankId> banks = Arrays.stream(options.required("ispbs").split(","))
                .map(ispb -> new BankId(Integer.parseInt(ispb.strip())))
                .toList();
        int timeoutSeconds = options.integer("timeout-seconds", 120);
        Path accounts = options.path("accounts");
        Path answers = options.path("answers");
        options.rejectUnknown();
        return new MedScenarioOptions(api, reporting, tls, banks, timeoutSeconds, accounts, answers);
    }
}
