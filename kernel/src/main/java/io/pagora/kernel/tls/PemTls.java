package io.pagora.kernel.tls;

import io.pagora.kernel.Check;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS contexts for Pagora's clients (the launcher's tools, the tests) from PEM files, the format the
 * launcher's {@code openssl} writes and k6 and curl read: certificates as {@code CERTIFICATE} blocks,
 * private keys unencrypted PKCS#8 ({@code PRIVATE KEY}), EC or RSA. Plain JDK, so every client loads
 * them the same way.
 */
public final class PemTls {

    private static final String PROTOCOL = "TLSv1.3";
    private static final char[] IN_MEMORY_PASSWORD = "pagora".toCharArray();
    private static final List<String> KEY_ALGORITHMS = List.of("EC", "RSA");

    private PemTls() {}

    /** A client that presents {@code certificate} (its key in {@code privateKey}) and trusts only {@code ca}. */
    public static SSLContext mutual(Path certificate, Path privateKey, Path ca) {
        try {
            KeyStore identity = KeyStore.getInstance("PKCS12");
            identity.load(null, null);
            Certificate[] chain = certificates(certificate).toArray(Certificate[]::new);
            Check.that(chain.length > 0, "no certificate in %s", certificate);
            identity.setKeyEntry("client", privateKey(privateKey), IN_MEMORY_PASSWORD, chain);
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(identity, IN_MEMORY_PASSWORD);
            SSLContext context = SSLContext.getInstance(PROTOCOL);
            context.init(keys.getKeyManagers(), trustManagers(ca).getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot load the TLS identity " + certificate + " / " + privateKey, e);
        }
    }

    /** A client without a certificate of its own (an anonymous caller) that trusts only {@code ca}. */
    public static SSLContext anonymous(Path ca) {
        try {
            SSLContext context = SSLContext.getInstance(PROTOCOL);
            context.init(null, trustManagers(ca).getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot load the CA certificate " + ca, e);
        }
    }

    private static TrustManagerFactory trustManagers(Path ca) throws GeneralSecurityException, IOException {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        int index = 0;
        for (Certificate certificate : certificates(ca)) {
            trusted.setCertificateEntry("ca-" + index++, certificate);
        }
        Check.that(index > 0, "no certificate in %s", ca);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        return trust;
    }

    private static Collection<? extends Certificate> certificates(Path pem)
            throws GeneralSecurityException, IOException {
        return CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(Files.readAllBytes(pem)));
    }

    private static PrivateKey privateKey(Path pem) throws IOException {
        String text = Files.readString(pem, StandardCharsets.US_ASCII);
        String begin = "-----BEGIN PRIVATE KEY-----";
        String end = "-----END PRIVATE KEY-----";
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        if (from < 0 || to < from) {
            throw new IllegalArgumentException(pem + " holds no unencrypted PKCS#8 key (" + begin + ")");
        }
        byte[] der = Base64.getMimeDecoder().decode(text.substring(from + begin.length(), to));
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException wrongAlgorithm) {
                // try the next one: PKCS#8 names its algorithm, but KeyFactory needs it up front
            }
        }
        throw new UncheckedIOException(new IOException(pem + " holds a key that is neither EC nor RSA"));
    }
}
