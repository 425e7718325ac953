package io.pagora.local.tls;

import io.pagora.kernel.Check;
import io.pagora.kernel.tls.PemTls;
import io.pagora.local.cli.Options;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.access.Caller;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;

/**
 * The certificates {@code infra/local/pagora certs} writes ({@code --tls-dir=}, default {@value #DEFAULT_DIRECTORY})
 * and an HTTP client per identity: every local-runtime tool calls payment-api and reporting-service as a named
 * participant over mutual TLS, never anonymously. The operator registers banks and funds reserves and reads
 * {@code /stats}; a bank opens and funds its own customers and pays from their accounts.
 *
 * <pre>
 *   ca.crt                                   the local CA (the only one trusted)
 *   participants/operator.crt|.key           the switch operator
 *   participants/ispb-NNNNNNNN.crt|.key      one bank ({@link Caller#principalName()})
 * </pre>
 */
public final class LocalTls {

    static final String DIRECTORY_OPTION = "tls-dir";
    static final String DEFAULT_DIRECTORY = "var/tls";
    /** The monitor's certificate name (platform.Certs); not a {@link Caller}: it has no business API. */
    static final String MONITOR = "monitor";

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final Path directory;

    public LocalTls(Path directory) {
        Check.that(
                Files.isRegularFile(directory.resolve("ca.crt")),
                "no CA certificate in %s: run infra/local/pagora certs",
                directory);
        this.directory = directory;
    }

    /** The directory named by {@code --tls-dir=}, else {@value #DEFAULT_DIRECTORY}. */
    public static LocalTls of(Options options) {
        return new LocalTls(Path.of(options.string(DIRECTORY_OPTION, DEFAULT_DIRECTORY)));
    }

    /** The services are reached over TLS only (the plain-http profile is for experiments by hand, with curl). */
    public static URI requireHttps(URI service) {
        Check.that("https".equals(service.getScheme()), "a participant-facing service is https, not %s", service);
        return service;
    }

    public SSLContext operator() {
        return identity(Caller.OPERATOR);
    }

    /** The metrics scraper (CN=monitor): reads {@code /actuator/prometheus} and nothing else. */
    public SSLContext monitor() {
        return identity(MONITOR);
    }

    public SSLContext bank(BankId bank) {
        return identity(new Caller.Bank(bank));
    }

    /** An HTTP/1.1 client presenting {@code identity}; keeps its connections alive for reuse. */
    public static HttpClient client(SSLContext identity, Executor executor) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(CONNECT_TIMEOUT)
                .sslContext(identity);
        if (executor != null) {
            builder.executor(executor);
        }
        return builder.build();
    }

    private SSLContext identity(Caller caller) {
        return identity(caller.principalName());
    }

    private SSLContext identity(String name) {
        Path participants = directory.resolve("participants");
        Path certificate = participants.resolve(name + ".crt");
        Check.that(
                Files.isRegularFile(certificate),
                "no certificate for %s in %s: run infra/local/pagora certs",
                name,
                participants);
        return PemTls.mutual(certificate, participants.resolve(name + ".key"), directory.resolve("ca.crt"));
    }
}
