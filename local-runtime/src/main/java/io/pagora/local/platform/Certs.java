package io.pagora.local.platform;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The local certificates, made with openssl under {@code var/tls}. Every client reads this layout (the
 * services, local-runtime's LocalTls, k6, curl, Prometheus):
 * <pre>
 *   ca.crt, ca.key                          the local CA (EC P-256, self-signed)
 *   server.crt, server.key                  payment-api's and reporting-service's server certificate
 *                                           (SAN localhost, 127.0.0.1, payment-api, reporting-service, their -1 and -2
 *                                           (docker-compose.scale.yml), *.pagora.test)
 *   participants/operator.crt|.key          the switch operator (CN=operator)
 *   participants/monitor.crt|.key           the metrics scraper, Prometheus (CN=monitor)
 *   participants/ispb-NNNNNNNN.crt|.key     one bank each (CN=ispb-NNNNNNNN)
 * </pre>
 * Keys are unencrypted PKCS#8 PEM, mode 600. Idempotent: the CA is reused; a certificate is made only when it
 * is missing or no longer verifies against the CA (expired, or issued by a CA made since).
 */
final class Certs {

    static final int CA_DAYS = 3650;
    static final int LEAF_DAYS = 825;
    private static final String CLIENT = "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n"
            + "extendedKeyUsage=clientAuth\n";
    private static final String SERVER = "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n"
            + "extendedKeyUsage=serverAuth\n"
            + "subjectAltName=DNS:localhost,IP:127.0.0.1,DNS:payment-api,DNS:reporting-service,DNS:payment-api-1,"
            + "DNS:payment-api-2,DNS:reporting-service-1,DNS:reporting-service-2,DNS:*.pagora.test\n";

    private final Path directory;
    private final Path participants;

    Certs(Path directory) {
        this.directory = directory;
        this.participants = directory.resolve("participants");
    }

    /** A bank's principal: {@code ispb-} and its eight-digit ISPB. */
    static String bankPrincipal(long ispb) {
        if (ispb < 0 || ispb > 99_999_999) {
            throw Console.fail("an ISPB is up to 8 digits, not '%d'", ispb);
        }
        return "ispb-%08d".formatted(ispb);
    }

    /** The CA, the server's, the operator's and the monitor's certificates and one per ISPB; returns what it issued. */
    List<String> ensure(List<Long> ispbs) {
        List<String> issued = new ArrayList<>();
        try {
            Files.createDirectories(participants);
            ensureCa();
            issue(directory.resolve("server"), "localhost", SERVER, issued);
            issue(participants.resolve("operator"), "operator", CLIENT, issued);
            issue(participants.resolve("monitor"), "monitor", CLIENT, issued);
            for (long ispb : ispbs) {
                String principal = bankPrincipal(ispb);
                issue(participants.resolve(principal), principal, CLIENT, issued);
            }
        } catch (IOException e) {
            throw Console.fail("could not write the certificates under %s: %s", directory, e.getMessage());
        }
        if (!issued.isEmpty()) {
            Console.say("certs: issued %s (in %s)", String.join(" ", issued), directory);
        }
        return issued;
    }

    private void ensureCa() throws IOException {
        if (nonEmpty(directory.resolve("ca.crt")) && nonEmpty(directory.resolve("ca.key"))) {
            return;
        }
        requireOpenssl();
        Console.say("certs: a new local CA in %s (every certificate issued by an earlier one is issued again)",
                directory.resolve("ca.crt"));
        Path key = privateFile(directory.resolve("ca.key.tmp"));
        Path certificate = directory.resolve("ca.crt.tmp");
        openssl(List.of("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-days", Integer.toString(CA_DAYS), "-subj", "/O=Pagora local/CN=Pagora local CA",
                "-keyout", key.toString(), "-out", certificate.toString(),
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"),
                "the local CA");
        publish(key, certificate, directory.resolve("ca.key"), directory.resolve("ca.crt"));
    }

    private void issue(Path stem, String commonName, String extensions, List<String> issued) throws IOException {
        Path certificate = Path.of(stem + ".crt");
        Path key = Path.of(stem + ".key");
        if (current(certificate, key)) {
            return;
        }
        requireOpenssl();
        Path keyTmp = privateFile(Path.of(stem + ".key.tmp"));
        Path request = Path.of(stem + ".csr.tmp");
        Path certificateTmp = Path.of(stem + ".crt.tmp");
        Path extensionsFile = Path.of(stem + ".ext.tmp");
        Files.writeString(extensionsFile, extensions);
        try {
            openssl(List.of("openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256",
                    "-out", keyTmp.toString()), "the key of " + commonName);
            openssl(List.of("openssl", "req", "-new", "-key", keyTmp.toString(), "-subj", "/O=Pagora local/CN=" + commonName,
                    "-out", request.toString()), "the request of " + commonName);
            openssl(List.of("openssl", "x509", "-req", "-in", request.toString(), "-CA", directory.resolve("ca.crt").toString(),
                    "-CAkey", directory.resolve("ca.key").toString(), "-set_serial", "0x" + serial(),
                    "-days", Integer.toString(LEAF_DAYS), "-extfile", extensionsFile.toString(),
                    "-out", certificateTmp.toString()), "the certificate of " + commonName);
        } finally {
            Files.deleteIfExists(request);
            Files.deleteIfExists(extensionsFile);
        }
        publish(keyTmp, certificateTmp, key, certificate);
        issued.add(commonName);
    }

    /** Exists and verifies against the CA (which also checks that it has not expired). */
    private boolean current(Path certificate, Path key) {
        return nonEmpty(certificate) && nonEmpty(key) && Exec.capture(List.of("openssl", "verify", "-CAfile",
                directory.resolve("ca.crt").toString(), certificate.toString())).ok();
    }

    private static void publish(Path keyTmp, Path certificateTmp, Path key, Path certificate) throws IOException {
        Files.setPosixFilePermissions(keyTmp, PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(certificateTmp, PosixFilePermissions.fromString("rw-r--r--"));
        Files.move(keyTmp, key, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.move(certificateTmp, certificate, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** An empty file only its owner reads, for openssl to write a key into (it keeps the mode). */
    private static Path privateFile(Path file) throws IOException {
        Files.deleteIfExists(file);
        return Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }

    private static void openssl(List<String> command, String what) {
        Exec.Result result = Exec.capture(command);
        if (!result.ok()) {
            throw Console.fail("openssl could not make %s: %s", what, result.output().strip());
        }
    }

    private static void requireOpenssl() {
        if (!Exec.onPath("openssl")) {
            throw Console.fail("the certificates need openssl (Debian: apt-get install openssl)");
        }
    }

    private static String serial() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        bytes[0] &= 0x7f; // a positive serial
        return HexFormat.of().formatHex(bytes);
    }

    private static boolean nonEmpty(Path file) {
        try {
            return Files.isRegularFile(file) && Files.size(file) > 0;
        } catch (IOException unreadable) {
            return false;
        }
    }
}
