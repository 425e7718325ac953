package io.pagora.service.security;

import java.security.cert.X509Certificate;
import java.util.List;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.security.auth.x500.X500Principal;
import org.springframework.security.web.authentication.preauth.x509.X509PrincipalExtractor;

/**
 * The principal name of a client certificate: its subject's one common name. A subject with no CN, several,
 * or a multi-valued RDN names nobody: null, and the request goes on unauthenticated and is refused (an exception here
 * would escape Spring Security's filter as a 500).
 */
final class CommonNameExtractor implements X509PrincipalExtractor {

    @Override
    public Object extractPrincipal(X509Certificate certificate) {
        String subject = certificate.getSubjectX500Principal().getName(X500Principal.RFC2253);
        try {
            List<Rdn> rdns = new LdapName(subject).getRdns();
            // A multi-valued RDN (CN=a+CN=b, C=BR+CN=a) shows only one of its values to getType/getValue: refuse it.
            if (rdns.stream().anyMatch(rdn -> rdn.size() != 1)) {
                return null;
            }
            List<Object> names = rdns.stream()
                    .filter(rdn -> rdn.getType().equalsIgnoreCase("CN"))
                    .map(Rdn::getValue)
                    .toList();
            return names.size() == 1 && names.getFirst() instanceof String name ? name : null;
        } catch (InvalidNameException e) {
            return null;
        }
    }
}
