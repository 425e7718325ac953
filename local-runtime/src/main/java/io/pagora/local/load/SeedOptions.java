package io.pagora.local.load;

import io.pagora.local.cli.Options;
import io.pagora.local.tls.LocalTls;
import io.pagora.settlement.domain.BankId;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** The seeding's command line (seed), read once: its defaults are written here. */
record SeedOptions(Path out, URI api, LocalTls tls, List<BankId> banks, Seed.Plan plan) {

    static SeedOptions parse(String[] args) {
        Options options = new Options("seed", args);
        Path out = options.path("out");
        URI api = URI.create(options.string("api-url", "https://127.0.0.1:8080"));
        LocalTls tls = LocalTls.of(options);
        List<BankId> banks = Arrays.stream(options.required("ispbs").split(","))
                .map(ispb -> new BankId(Integer.parseInt(ispb.strip())))
                .toList();
        Seed.Plan plan = new Seed.Plan(
                banks,
                options.integer("customers-per-bank", 50),
                options.longValue("reserve-funding", 100_000_000),
                options.longValue("last-reserve-funding", 20_000),
                options.longValue("customer-funding", 500_000),
                options.integer("poor-customers", 3));
        options.rejectUnknown();
        return new SeedOptions(out, api, tls, banks, plan);
    }
}
