package io.pagora.service.security;

import jakarta.servlet.http.HttpServletRequest;
import java.security.cert.X509Certificate;
import org.springframework.security.web.authentication.preauth.x509.X509AuthenticationFilter;
import org.springframework.security.web.authentication.preauth.x509.X509PrincipalExtractor;

/**
 * Spring Security's X.509 filter, without its per-request cost. Its own {@code extractClientCertificate} logs
 * the certificate at DEBUG through commons-logging 1.3's SLF4J bridge, which formats the message before the
 * level is checked: every request would render the whole certificate as a hex dump, a large share of a service's
 * CPU. Here the certificate is read without logging, and the credentials are its subject, so that an
 * authentication's string form (built by other unguarded debug lines) does not dump it either.
 */
final class CertificateAuthenticationFilter extends X509AuthenticationFilter {

    private final X509PrincipalExtractor principals;

    CertificateAuthenticationFilter(X509PrincipalExtractor principals) {
        this.principals = principals;
        setPrincipalExtractor(principals);
    }

    @Override
    protected Object getPreAuthenticatedPrincipal(HttpServletRequest request) {
        X509Certificate certificate = clientCertificate(request);
        return certificate == null ? null : principals.extractPrincipal(certificate);
    }

    @Override
    protected Object getPreAuthenticatedCredentials(HttpServletRequest request) {
        X509Certificate certificate = clientCertificate(request);
        return certificate == null
                ? null
                : certificate.getSubjectX500Principal().getName();
    }

    private static X509Certificate clientCertificate(HttpServletRequest request) {
        return request.getAttribute(SecurityProblems.CERTIFICATE_ATTRIBUTE) instanceof X509Certificate[] chain
                        && chain.length > 0
                ? chain[0]
                : null;
    }
}
