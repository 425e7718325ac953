package io.pagora.local.load;

import io.pagora.local.cli.Options;
import io.pagora.local.tls.LocalTls;
import java.net.URI;
import java.nio.file.Path;

/**
 * The degraded sender's command line (send-degraded), read once: its defaults are written here.
 *
 * @param keyShare payments whose payee is named by its PIX key, after a look-up
 * @param qrShare payments whose payee is named by a static BR Code of its key, after a look-up
 */
record DegradedSenderOptions(
        Path accounts, URI api, LocalTls tls, int payments, Path answers, double keyShare, double qrShare) {

    static DegradedSenderOptions parse(String[] args) {
        Options options = new Options("send-degraded", args);
        Path accounts = options.path("accounts");
        URI api = URI.create(options.string("api-url", "https://127.0.0.1:8080"));
        LocalTls tls = LocalTls.of(options);
        int payments = options.integer("payments", 5_000);
        Path answers = options.path("answers");
        double keyShare = options.decimal("key-share", 0.2);
        double qrShare = options.decimal("qr-share", 0.05);
        options.rejectUnknown();
        if (payments < 1 || payments > 10_000_000) {
            throw new IllegalArgumentException("--payments in 1..10000000: " + payments);
        }
        if (keyShare < 0 || qrShare < 0 || keyShare + qrShare > 1) {
            throw new IllegalArgumentException("--key-share and --qr-share in 0..1, together at most 1");
        }
        return new DegradedSenderOptions(accounts, api, tls, payments, answers, keyShare, qrShare);
    }
}
