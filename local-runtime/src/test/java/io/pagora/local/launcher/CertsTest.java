package io.pagora.local.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.pagora.kernel.tls.PemTls;
import io.pagora.settlement.domain.access.Caller;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.security.auth.x500.X500Principal;
import org.junit.jupiter.api.Test;

/**
 * The local certificates, made by the real openssl, read by the services' own PEM loader; and a bank's own request
 * (made outside, with openssl) signed for that bank only.
 */
class CertsTest {

    private final Path directory = TemporaryRepository.create().tls();
    private final Certs certs = new Certs(directory);

    @Test
    void the_ca_the_server_the_operator_the_monitor_and_each_bank_get_a_certificate_once() throws Exception {
        assumeThat(Exec.onPath("openssl")).as("openssl on the PATH").isTrue();

        assertThat(certs.ensure(List.of(1L, 10001111L)))
                .containsExactly("localhost", "operator", "monitor", "ispb-00000001", "ispb-10001111");
        assertThat(certs.ensure(List.of(1L))).as("a second run issues nothing").isEmpty();

        Path participants = directory.resolve("participants");
        PemTls.mutual(
                participants.resolve("ispb-10001111.crt"),
                participants.resolve("ispb-10001111.key"),
                directory.resolve("ca.crt"));
        PemTls.anonymous(directory.resolve("ca.crt"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(participants.resolve("operator.key"))))
                .isEqualTo("rw-------");
        assertThat(Exec.capture(List.of(
                                "openssl",
                                "x509",
                                "-in",
                                directory.resolve("server.crt").toString(),
                                "-noout",
                                "-ext",
                                "subjectAltName"))
                        .output())
                .contains("IP Address:127.0.0.1", "DNS:localhost");
        try (var leftovers = Files.list(participants)) {
            assertThat(leftovers.map(Path::toString)).noneMatch(name -> name.endsWith(".tmp"));
        }
    }

    @Test
    void a_certificate_from_an_earlier_ca_is_issued_again() throws Exception {
        assumeThat(Exec.onPath("openssl")).as("openssl on the PATH").isTrue();
        certs.ensure(List.of());
        Files.delete(directory.resolve("ca.crt"));
        Files.delete(directory.resolve("ca.key"));

        assertThat(certs.ensure(List.of())).containsExactly("localhost", "operator", "monitor");
    }

    // ------------------------------------------------------------------ an outside bank's request, signed

    /** What a bank types (docs/security.md, "Enrolling a bank"): its own key and request, never the operator's. */
    private static Path bankRequest(Path directory, String subject) throws Exception {
        Path key = directory.resolve("bank.key");
        Path request = directory.resolve("bank.csr");
        assertThat(Exec.capture(List.of(
                                "openssl",
                                "genpkey",
                                "-algorithm",
                                "EC",
                                "-pkeyopt",
                                "ec_paramgen_curve:P-256",
                                "-out",
                                key.toString()))
                        .ok())
                .isTrue();
        assertThat(Exec.capture(List.of(
                                "openssl",
                                "req",
                                "-new",
                                "-key",
                                key.toString(),
                                "-subj",
                                subject,
                                "-out",
                                request.toString()))
                        .ok())
                .isTrue();
        return request;
    }

    @Test
    void a_banks_own_request_is_signed_and_its_certificate_names_that_bank_in_a_mutual_tls_handshake()
            throws Exception {
        assumeThat(Exec.onPath("openssl")).as("openssl on the PATH").isTrue();
        certs.ensure(List.of());
        Path bank = Files.createTempDirectory("pagora-bank");
        Path request = bankRequest(bank, "/O=Banco Exemplo/CN=ispb-12345678");

        Path certificate = certs.sign(new Certs.Signing(request, 12_345_678, bank.resolve("ispb-12345678.crt")));

        assertThat(certificate).isEqualTo(bank.resolve("ispb-12345678.crt"));
        assertThat(Exec.capture(List.of(
                                "openssl",
                                "verify",
                                "-CAfile",
                                directory.resolve("ca.crt").toString(),
                                certificate.toString()))
                        .ok())
                .as("issued by the local CA")
                .isTrue();
        assertThat(Exec.capture(List.of(
                                "openssl",
                                "x509",
                                "-in",
                                certificate.toString(),
                                "-noout",
                                "-ext",
                                "extendedKeyUsage,basicConstraints"))
                        .output())
                .contains("TLS Web Client Authentication", "CA:FALSE");
        // The services' side of the handshake: they trust the CA, demand a client certificate and take its CN.
        assertThat(handshakeAsServer(PemTls.mutual(certificate, bank.resolve("bank.key"), directory.resolve("ca.crt"))))
                .isEqualTo(Optional.of(Caller.bank(12_345_678)));
    }

    @Test
    void a_request_naming_another_bank_or_none_or_two_is_refused_and_nothing_is_written() throws Exception {
        assumeThat(Exec.onPath("openssl")).as("openssl on the PATH").isTrue();
        certs.ensure(List.of());
        Path bank = Files.createTempDirectory("pagora-bank");
        Path out = bank.resolve("out.crt");

        Path other = bankRequest(bank, "/CN=ispb-87654321");
        assertThatThrownBy(() -> certs.sign(new Certs.Signing(other, 12_345_678, out)))
                .isInstanceOf(Console.Failure.class)
                .hasMessageContaining("CN=ispb-87654321")
                .hasMessageContaining("ispb-12345678");
        Path operator = bankRequest(bank, "/CN=operator");
        assertThatThrownBy(() -> certs.sign(new Certs.Signing(operator, 12_345_678, out)))
                .hasMessageContaining("CN=operator");
        Path two = bankRequest(bank, "/CN=ispb-12345678/CN=operator");
        assertThatThrownBy(() -> certs.sign(new Certs.Signing(two, 12_345_678, out)))
                .hasMessageContaining("exactly one CN");
        Path none = bankRequest(bank, "/O=Banco Exemplo");
        assertThatThrownBy(() -> certs.sign(new Certs.Signing(none, 12_345_678, out)))
                .hasMessageContaining("exactly one CN");
        assertThat(out).doesNotExist();
    }

    @Test
    void a_file_that_is_no_request_or_a_weak_key_is_refused_clearly() throws Exception {
        assumeThat(Exec.onPath("openssl")).as("openssl on the PATH").isTrue();
        certs.ensure(List.of());
        Path bank = Files.createTempDirectory("pagora-bank");
        Path out = bank.resolve("out.crt");

        Path garbage = Files.writeString(bank.resolve("garbage.csr"), "-----BEGIN CERTIFICATE REQUEST-----\nxyz\n");
        assertThatThrownBy(() -> certs.sign(new Certs.Signing(garbage, 12_345_678, out)))
                .isInstanceOf(Console.Failure.class)
                .hasMessageContaining("not a certificate signing request");
        assertThatThrownBy(() -> certs.sign(new Certs.Signing(bank.resolve("missing.csr"), 12_345_678, out)))
                .hasMessageContaining("missing.csr");
        Path weakKey = bank.resolve("weak.key");
        Path weak = bank.resolve("weak.csr");
        assertThat(Exec.capture(List.of(
                                "openssl",
                                "genpkey",
                                "-algorithm",
                                "RSA",
                                "-pkeyopt",
                                "rsa_keygen_bits:1024",
                                "-out",
                                weakKey.toString()))
                        .ok())
                .isTrue();
        assertThat(Exec.capture(List.of(
                                "openssl",
                                "req",
                                "-new",
                                "-key",
                                weakKey.toString(),
                                "-subj",
                                "/CN=ispb-12345678",
                                "-out",
                                weak.toString()))
                        .ok())
                .isTrue();
        assertThatThrownBy(() -> certs.sign(new Certs.Signing(weak, 12_345_678, out)))
                .hasMessageContaining("1024");
        assertThat(out).doesNotExist();
    }

    @Test
    void the_certs_options_name_either_the_banks_to_make_or_one_request_to_sign() {
        assertThat(Certs.Options.parse(List.of())).isEqualTo(new Certs.Options(List.of(), Optional.empty()));
        assertThat(Certs.Options.parse(List.of("--ispbs=1,10001111")).ispbs()).containsExactly(1L, 10_001_111L);
        assertThat(Certs.Options.parse(List.of("--sign-csr=bank.csr", "--ispb=12345678", "--out=/tmp/b.crt"))
                        .signing())
                .contains(new Certs.Signing(Path.of("bank.csr").toAbsolutePath(), 12_345_678, Path.of("/tmp/b.crt")));
        assertThat(Certs.Options.parse(List.of("--sign-csr=/x/bank.csr", "--ispb=345"))
                        .signing()
                        .orElseThrow()
                        .out())
                .as("next to the request, named for the bank")
                .isEqualTo(Path.of("/x/ispb-00000345.crt"));

        assertThatThrownBy(() -> Certs.Options.parse(List.of("--sign-csr=bank.csr")))
                .isInstanceOf(Console.Failure.class)
                .hasMessageContaining("--ispb=");
        assertThatThrownBy(() -> Certs.Options.parse(List.of("--ispb=12345678")))
                .hasMessageContaining("--sign-csr=");
        assertThatThrownBy(() -> Certs.Options.parse(List.of("--sign-csr=a.csr", "--ispb=1", "--ispbs=2")))
                .hasMessageContaining("--ispbs");
        assertThatThrownBy(() -> Certs.Options.parse(List.of("--sign-csr=a.csr", "--ispb=123456789")))
                .hasMessageContaining("up to 8 digits");
        assertThatThrownBy(() -> Certs.Options.parse(List.of("--sign-csr=a.csr", "--ispb=1", "--out=a.csr")))
                .hasMessageContaining("the request itself");
        assertThatThrownBy(() -> Certs.Options.parse(List.of("--sign"))).hasMessageContaining("unknown certs option");
        assertThat(Launcher.help("certs")).contains("--sign-csr=FILE --ispb=NNNNNNNN");
    }

    @Test
    void a_certs_option_it_does_not_know_is_refused_with_the_ones_it_does() {
        assertThatThrownBy(() -> Certs.Options.parse(List.of("--ispbs=1", "--days=30")))
                .hasMessage("unknown certs option: --days=30 (known: --ispbs=... --sign-csr=... --ispb=... --out=...)");
        assertThatThrownBy(() -> Certs.Options.parse(List.of("--ispbs")))
                .hasMessage("--ispbs needs a value: --ispbs=...");
        assertThatThrownBy(() -> Certs.Options.parse(List.of("10001111")))
                .hasMessageContaining("unknown certs option: 10001111");
    }

    /**
     * One TLS handshake, the services' way: the server trusts only the local CA and demands a client certificate
     * (JSSE checks its chain and its clientAuth usage); the caller is the certificate's one CN, as service-support's
     * CommonNameExtractor reads it.
     */
    private Optional<Caller> handshakeAsServer(SSLContext client) throws Exception {
        SSLContext server = PemTls.mutual(
                directory.resolve("server.crt"), directory.resolve("server.key"), directory.resolve("ca.crt"));
        try (SSLServerSocket listening = (SSLServerSocket)
                server.getServerSocketFactory().createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            listening.setNeedClientAuth(true);
            listening.setSoTimeout(10_000);
            CompletableFuture<X509Certificate> presented = new CompletableFuture<>();
            Thread serving = Thread.ofPlatform().daemon().start(() -> {
                try (SSLSocket accepted = (SSLSocket) listening.accept()) {
                    accepted.setSoTimeout(10_000);
                    // Reading the client's first byte completes the handshake, its certificate checked.
                    assertThat(accepted.getInputStream().read()).isEqualTo(1);
                    presented.complete((X509Certificate) accepted.getSession().getPeerCertificates()[0]);
                } catch (Exception | AssertionError e) {
                    presented.completeExceptionally(e);
                }
            });
            try (SSLSocket socket = (SSLSocket) client.getSocketFactory()
                    .createSocket(InetAddress.getLoopbackAddress(), listening.getLocalPort())) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(1);
                socket.getOutputStream().flush();
                X509Certificate certificate = presented.get(10, TimeUnit.SECONDS);
                List<Rdn> names = new LdapName(
                                certificate.getSubjectX500Principal().getName(X500Principal.RFC2253))
                        .getRdns().stream()
                                .filter(rdn -> rdn.getType().equalsIgnoreCase("CN"))
                                .toList();
                assertThat(names).hasSize(1);
                return Caller.ofPrincipalName((String) names.getFirst().getValue());
            } finally {
                serving.join(10_000);
            }
        }
    }
}
