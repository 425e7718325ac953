package io.pagora.testing;

import io.pagora.kernel.Check;
import io.pagora.kernel.tls.PemTls;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A certificate authority made at test time, with the files the services read from
 * {@code pagora.tls.directory} ({@code ca.crt}, {@code server.crt}, {@code server.key}) and client
 * identities issued on demand. It writes the layout the launcher's {@code openssl} writes under
 * {@code var/tls}, by the same naming contract, said here independently of the services' code: a bank's
 * certificate is named {@code CN=ispb-<8 digits>}, the operator's {@code CN=operator}.
 *
 * <p>One authority per test JVM ({@link #shared()}); EC P-256 keys, valid for a day.
 */
public final class TestCertificates {

    /** A client identity: the PEM files a client presents. */
    public record Identity(String commonName, Path certificate, Path privateKey, Path ca) {
        /** A TLS context that presents this identity and trusts the test CA. */
        public SSLContext sslContext() {
            return PemTls.mutual(certificate, privateKey, ca);
        }
    }

    private static final Duration VALIDITY = Duration.ofDays(1);
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final String TRUSTED_CA_NAME = "Pagora test CA";
    private static TestCertificates shared;

    private final Path directory;
    private final X500Name caName;
    private final KeyPair caKeys;
    private final X509Certificate caCertificate;
    private final AtomicLong serials = new AtomicLong(1);
    private final Map<String, Identity> identities = new ConcurrentHashMap<>();

    private TestCertificates(Path directory, String caCommonName) {
        this.directory = directory;
        this.caName = new X500Name("CN=" + caCommonName + ",O=Pagora tests");
        this.caKeys = newKeyPair();
        this.caCertificate = sign(caName, caKeys.getPublic(), Extensions.CA);
        write(directory.resolve("ca.crt"), caCertificate);
        KeyPair serverKeys = newKeyPair();
        write(
                directory.resolve("server.crt"),
                sign(new X500Name("CN=localhost,O=Pagora tests"), serverKeys.getPublic(), Extensions.SERVER));
        write(directory.resolve("server.key"), serverKeys.getPrivate());
    }

    /** The test JVM's authority, made on first use in a fresh temporary directory. */
    public static synchronized TestCertificates shared() {
        if (shared == null) {
            shared = new TestCertificates(temporaryDirectory("pagora-tls-"), TRUSTED_CA_NAME);
        }
        return shared;
    }

    /**
     * An impostor authority: the same name as the trusted one, another key. Its certificates look issued by
     * the trusted CA (so a client presents them) and must be refused at the handshake.
     */
    public static TestCertificates impostor() {
        return new TestCertificates(temporaryDirectory("pagora-impostor-tls-"), TRUSTED_CA_NAME);
    }

    /** Points a Spring test context's {@code pagora.tls.directory} at the shared authority's files. */
    public static void register(DynamicPropertyRegistry registry) {
        registry.add("pagora.tls.directory", () -> shared().directory().toString());
    }

    /** Holds {@code ca.crt}, {@code server.crt}, {@code server.key} and one {@code <name>.crt/.key} per identity issued. */
    public Path directory() {
        return directory;
    }

    public Path ca() {
        return directory.resolve("ca.crt");
    }

    public Identity bank(int ispb) {
        Check.that(ispb >= 0 && ispb <= 99_999_999, "an ISPB has at most 8 digits: %d", ispb);
        return identity(String.format("ispb-%08d", ispb));
    }

    public Identity operator() {
        return identity("operator");
    }

    /** A client certificate with any common name (one that names no participant, say), issued once per name. */
    public Identity identity(String commonName) {
        return identities.computeIfAbsent(commonName, name -> issue(name, "CN=" + name + ",O=Pagora tests"));
    }

    /** A client certificate with any subject (several CNs, a multi-valued RDN ...), issued once per subject. */
    public Identity withSubject(String x500Subject) {
        return identities.computeIfAbsent("subject:" + x500Subject, name -> issue(name, x500Subject));
    }

    private Identity issue(String commonName, String subject) {
        KeyPair keys = newKeyPair();
        X509Certificate certificate = sign(new X500Name(subject), keys.getPublic(), Extensions.CLIENT);
        String file = commonName.replaceAll("[^A-Za-z0-9_-]", "_");
        Path certificateFile = directory.resolve(file + ".crt");
        Path keyFile = directory.resolve(file + ".key");
        write(certificateFile, certificate);
        write(keyFile, keys.getPrivate());
        return new Identity(commonName, certificateFile, keyFile, ca());
    }

    private enum Extensions {
        CA,
        SERVER,
        CLIENT
    }

    private X509Certificate sign(X500Name subject, java.security.PublicKey key, Extensions kind) {
        Instant now = Instant.now();
        try {
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    caName,
                    BigInteger.valueOf(serials.getAndIncrement()),
                    Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(VALIDITY)),
                    subject,
                    key);
            switch (kind) {
                case CA -> {
                    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
                    builder.addExtension(
                            Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
                }
                case SERVER -> {
                    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
                    builder.addExtension(
                            Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
                    builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                        new GeneralName(GeneralName.dNSName, "localhost"),
                        new GeneralName(GeneralName.iPAddress, "127.0.0.1")
                    }));
                }
                case CLIENT -> {
                    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
                    builder.addExtension(
                            Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
                }
            }
            return new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(caKeys.getPrivate())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot sign a test certificate for " + subject, e);
        }
    }

    private static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has EC P-256", e);
        }
    }

    /** A certificate as a CERTIFICATE block; a private key as an unencrypted PKCS#8 PRIVATE KEY block. */
    private static void write(Path file, Object pem) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            if (pem instanceof PrivateKey key) {
                writer.writeObject(new PemObject("PRIVATE KEY", key.getEncoded()));
            } else {
                writer.writeObject(pem);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            Files.writeString(file, text.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path temporaryDirectory(String prefix) {
        try {
            Path directory = Files.createTempDirectory(prefix);
            directory.toFile().deleteOnExit();
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
