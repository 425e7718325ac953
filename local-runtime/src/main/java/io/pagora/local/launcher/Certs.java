package io.pagora.local.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

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
 *
 * <p>A bank outside this machine keeps its key to itself: it sends a certificate signing request, which
 * {@link #sign} turns into its client certificate, for the one bank the operator names (docs/security.md).
 *
 * <p>Over 400 lines on purpose: the CA, the identities it issues and the signing of a bank's request share the same
 * checks (validity, names, files), kept together so a certificate is issued one way.
 */
public final class Certs {

    static final int CA_DAYS = 3650;
    static final int LEAF_DAYS = 825;
    private static final String CLIENT = "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n"
            + "extendedKeyUsage=clientAuth\n";
    private static final String SERVER = "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n"
            + "extendedKeyUsage=serverAuth\n"
            + "subjectAltName=DNS:localhost,IP:127.0.0.1,DNS:payment-api,DNS:reporting-service,DNS:payment-api-1,"
            + "DNS:payment-api-2,DNS:reporting-service-1,DNS:reporting-service-2,DNS:*.pagora.test\n";

    /** The weakest keys a bank's request may carry: what the local CA's own keys are (P-256), or RSA of equal use. */
    static final int EC_BITS_MIN = 256;

    static final int RSA_BITS_MIN = 2048;

    /**
     * The certs command's options: the local certificates (for the seeded banks, or {@code --ispbs=...}), or one
     * bank's request signed ({@code --sign-csr=FILE --ispb=NNNNNNNN [--out=FILE]}), never both.
     */
    record Options(List<Long> ispbs, Optional<Signing> signing) {

        static Options parse(List<String> arguments) {
            io.pagora.local.cli.Options options = new io.pagora.local.cli.Options("certs", arguments);
            List<Long> ispbs = new ArrayList<>();
            String listed = options.string("ispbs", null);
            if (listed != null) {
                for (String each : listed.split(",")) {
                    ispbs.add(ispbOf(each));
                }
            }
            Path request = absolute(options.string("sign-csr", null));
            String named = options.string("ispb", null);
            Long ispb = named == null ? null : ispbOf(named);
            Path out = absolute(options.string("out", null));
            options.rejectUnknown();
            if (request == null) {
                if (ispb != null || out != null) {
                    throw Console.fail("--ispb= and --out= go with --sign-csr=FILE (the bank's request to sign)");
                }
                return new Options(List.copyOf(ispbs), Optional.empty());
            }
            if (ispb == null) {
                throw Console.fail(
                        "--sign-csr needs --ispb=NNNNNNNN: the bank the certificate is for (its registered ISPB)");
            }
            if (!ispbs.isEmpty()) {
                throw Console.fail(
                        "--ispbs=... makes the launcher's own key pairs; --sign-csr signs one bank's request:"
                                + " one at a time");
            }
            Path certificate = out != null ? out : request.resolveSibling(bankPrincipal(ispb) + ".crt");
            if (certificate.equals(request)) {
                throw Console.fail("--out=%s is the request itself: name another file for the certificate", out);
            }
            return new Options(List.of(), Optional.of(new Signing(request, ispb, certificate)));
        }

        private static Path absolute(String path) {
            return path == null ? null : Path.of(path).toAbsolutePath().normalize();
        }

        private static long ispbOf(String text) {
            if (!text.matches("\\d{1,8}")) {
                throw Console.fail("an ISPB is up to 8 digits, not '%s'", text);
            }
            return Long.parseLong(text);
        }
    }

    /** A bank's certificate signing request ({@code request}, PEM), to be signed as {@code ispb}'s into {@code out}. */
    record Signing(Path request, long ispb, Path out) {}

    private final Path directory;
    private final Path participants;

    public Certs(Path directory) {
        this.directory = directory;
        this.participants = directory.resolve("participants");
    }

    /** A bank's principal: {@code ispb-} and its eight-digit ISPB. */
    public static String bankPrincipal(long ispb) {
        if (ispb < 0 || ispb > 99_999_999) {
            throw Console.fail("an ISPB is up to 8 digits, not '%d'", ispb);
        }
        return "ispb-%08d".formatted(ispb);
    }

    /** The CA, the server's, the operator's and the monitor's certificates and one per ISPB; returns what it issued. */
    public List<String> ensure(List<Long> ispbs) {
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

    /**
     * Signs a bank's own request with the local CA, as that bank's client certificate ({@code CN=ispb-NNNNNNNN},
     * clientAuth, {@value #LEAF_DAYS} days), after checking what the services will believe: the request verifies
     * (its signature, so the bank holds the key), its subject holds exactly one CN and it names {@code ispb}, and its
     * key is EC of at least {@value #EC_BITS_MIN} bits or RSA of at least {@value #RSA_BITS_MIN}. The request's own
     * extensions are ignored: the certificate gets the launcher's client profile. Returns the certificate's path.
     */
    Path sign(Signing signing) {
        String principal = bankPrincipal(signing.ispb());
        Path request = signing.request();
        if (!Files.isRegularFile(request) || !Files.isReadable(request)) {
            throw Console.fail("no certificate signing request at %s (the bank makes it: docs/security.md)", request);
        }
        if (signing.out().getParent() != null && signing.out().getParent().equals(participants)) {
            throw Console.fail(
                    "--out=%s: %s holds the launcher's own key pairs; write the bank's certificate elsewhere",
                    signing.out(), participants);
        }
        ensure(List.of());
        Exec.Result verified = Exec.capture(List.of("openssl", "req", "-in", request.toString(), "-noout", "-verify"));
        if (!verified.ok()) {
            throw Console.fail(
                    "%s is not a certificate signing request that openssl can read and verify: %s",
                    request, firstLine(verified.output()));
        }
        String subject = opensslOutput(
                        List.of(
                                "openssl",
                                "req",
                                "-in",
                                request.toString(),
                                "-noout",
                                "-subject",
                                "-nameopt",
                                "RFC2253"),
                        "the subject of " + request)
                .strip()
                .replaceFirst("^subject=", "");
        Optional<String> commonName = commonName(subject);
        if (commonName.isEmpty()) {
            throw Console.fail(
                    "the request's subject '%s' must hold exactly one CN, %s (the name the services read)",
                    subject, principal);
        }
        if (!commonName.get().equals(principal)) {
            throw Console.fail(
                    "the request names CN=%s, not %s (--ispb=%08d): a bank's certificate names that bank" + " only",
                    commonName.get(), principal, signing.ispb());
        }
        requireStrongKey(opensslOutput(
                List.of("openssl", "req", "-in", request.toString(), "-noout", "-pubkey"), "the key of " + request));
        try {
            Path parent = signing.out().toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Path certificateTmp = Path.of(signing.out() + ".tmp");
            Path extensionsFile = Path.of(signing.out() + ".ext.tmp");
            Files.writeString(extensionsFile, CLIENT);
            try {
                openssl(
                        List.of(
                                "openssl",
                                "x509",
                                "-req",
                                "-in",
                                request.toString(),
                                "-CA",
                                directory.resolve("ca.crt").toString(),
                                "-CAkey",
                                directory.resolve("ca.key").toString(),
                                "-set_serial",
                                "0x" + serial(),
                                "-days",
                                Integer.toString(LEAF_DAYS),
                                "-extfile",
                                extensionsFile.toString(),
                                "-out",
                                certificateTmp.toString()),
                        "the certificate of " + principal);
            } finally {
                Files.deleteIfExists(extensionsFile);
            }
            Files.setPosixFilePermissions(certificateTmp, PosixFilePermissions.fromString("rw-r--r--"));
            Files.move(
                    certificateTmp, signing.out(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw Console.fail("could not write %s: %s", signing.out(), e.getMessage());
        }
        Console.say(
                "certs: signed %s's request: %s (%d days); the bank also needs the CA, %s",
                principal, signing.out(), LEAF_DAYS, directory.resolve("ca.crt"));
        return signing.out();
    }

    /** The subject's one common name, read as service-support's CommonNameExtractor reads a certificate's. */
    static Optional<String> commonName(String rfc2253) {
        try {
            List<Rdn> rdns = new LdapName(rfc2253).getRdns();
            if (rdns.stream().anyMatch(rdn -> rdn.size() != 1)) {
                return Optional.empty();
            }
            List<Object> names = rdns.stream()
                    .filter(rdn -> rdn.getType().equalsIgnoreCase("CN"))
                    .map(Rdn::getValue)
                    .toList();
            return names.size() == 1 && names.getFirst() instanceof String name ? Optional.of(name) : Optional.empty();
        } catch (InvalidNameException e) {
            return Optional.empty();
        }
    }

    private static void requireStrongKey(String pem) {
        PublicKey key = publicKey(pem);
        if (key instanceof ECPublicKey ec
                && ec.getParams().getCurve().getField().getFieldSize() >= EC_BITS_MIN) {
            return;
        }
        if (key instanceof RSAPublicKey rsa && rsa.getModulus().bitLength() >= RSA_BITS_MIN) {
            return;
        }
        String size = key instanceof ECPublicKey ec
                ? ec.getParams().getCurve().getField().getFieldSize() + "-bit"
                : key instanceof RSAPublicKey rsa ? rsa.getModulus().bitLength() + "-bit" : "";
        throw Console.fail(
                "the request's key is %s %s: a bank's key is EC (P-256 or larger) or RSA of at least %d bits",
                size, key.getAlgorithm(), RSA_BITS_MIN);
    }

    private static PublicKey publicKey(String pem) {
        byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        for (String algorithm : List.of("EC", "RSA")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePublic(new X509EncodedKeySpec(der));
            } catch (GeneralSecurityException notThisAlgorithm) {
                // Try the next one: the launcher takes the two kinds the services' PEM loader reads.
            }
        }
        throw Console.fail(
                "the request's key is neither EC nor RSA: a bank's key is EC (P-256) or RSA (>= %d bits)",
                RSA_BITS_MIN);
    }

    private static String opensslOutput(List<String> command, String what) {
        Exec.Result result = Exec.capture(command);
        if (!result.ok()) {
            throw Console.fail("openssl could not read %s: %s", what, firstLine(result.output()));
        }
        return result.output();
    }

    private static String firstLine(String output) {
        String stripped = output.strip();
        int end = stripped.indexOf('\n');
        return end < 0 ? stripped : stripped.substring(0, end);
    }

    private void ensureCa() throws IOException {
        if (nonEmpty(directory.resolve("ca.crt")) && nonEmpty(directory.resolve("ca.key"))) {
            return;
        }
        requireOpenssl();
        Console.say(
                "certs: a new local CA in %s (every certificate issued by an earlier one is issued again)",
                directory.resolve("ca.crt"));
        Path key = privateFile(directory.resolve("ca.key.tmp"));
        Path certificate = directory.resolve("ca.crt.tmp");
        openssl(
                List.of(
                        "openssl",
                        "req",
                        "-x509",
                        "-newkey",
                        "ec",
                        "-pkeyopt",
                        "ec_paramgen_curve:P-256",
                        "-nodes",
                        "-days",
                        Integer.toString(CA_DAYS),
                        "-subj",
                        "/O=Pagora local/CN=Pagora local CA",
                        "-keyout",
                        key.toString(),
                        "-out",
                        certificate.toString(),
                        "-addext",
                        "basicConstraints=critical,CA:TRUE",
                        "-addext",
                        "keyUsage=critical,keyCertSign,cRLSign"),
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
            openssl(
                    List.of(
                            "openssl",
                            "genpkey",
                            "-algorithm",
                            "EC",
                            "-pkeyopt",
                            "ec_paramgen_curve:P-256",
                            "-out",
                            keyTmp.toString()),
                    "the key of " + commonName);
            openssl(
                    List.of(
                            "openssl",
                            "req",
                            "-new",
                            "-key",
                            keyTmp.toString(),
                            "-subj",
                            "/O=Pagora local/CN=" + commonName,
                            "-out",
                            request.toString()),
                    "the request of " + commonName);
            openssl(
                    List.of(
                            "openssl",
                            "x509",
                            "-req",
                            "-in",
                            request.toString(),
                            "-CA",
                            directory.resolve("ca.crt").toString(),
                            "-CAkey",
                            directory.resolve("ca.key").toString(),
                            "-set_serial",
                            "0x" + serial(),
                            "-days",
                            Integer.toString(LEAF_DAYS),
                            "-extfile",
                            extensionsFile.toString(),
                            "-out",
                            certificateTmp.toString()),
                    "the certificate of " + commonName);
        } finally {
            Files.deleteIfExists(request);
            Files.deleteIfExists(extensionsFile);
        }
        publish(keyTmp, certificateTmp, key, certificate);
        issued.add(commonName);
    }

    /** Exists and verifies against the CA (which also checks that it has not expired). */
    private boolean current(Path certificate, Path key) {
        return nonEmpty(certificate)
                && nonEmpty(key)
                && Exec.capture(List.of(
                                "openssl",
                                "verify",
                                "-CAfile",
                                directory.resolve("ca.crt").toString(),
                                certificate.toString()))
                        .ok();
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
        return Files.createFile(
                file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }

    private static void openssl(List<String> command, String what) {
        Exec.Result result = Exec.capture(command);
        if (!result.ok()) {
            throw Console.fail(
                    "openssl could not make %s: %s", what, result.output().strip());
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
