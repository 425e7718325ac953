package io.pagora.service.security;

import io.pagora.service.web.EdgeProblems;
import io.pagora.settlement.application.AccessRefusals;
import io.pagora.settlement.domain.access.AccessRefusal;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import tools.jackson.databind.json.JsonMapper;

/**
 * The refusals Spring Security decides itself, as problem+json and counted: 401 for a request that names
 * nobody (no certificate, or one naming no participant), 403 for an operator-only endpoint (the actuator's)
 * called by a bank, or anything but the metrics called by the monitor. No stack trace, no log line above DEBUG. Refusals of business objects are the
 * application's (they read as missing: 404).
 */
final class SecurityProblems implements AuthenticationEntryPoint, AccessDeniedHandler {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    static final String CERTIFICATE_ATTRIBUTE = "jakarta.servlet.request.X509Certificate";

    private final AccessRefusals refusals;
    private final String identityHeader;

    /** @param identityHeader the plain-HTTP profile's identity header, or null over TLS */
    SecurityProblems(AccessRefusals refusals, String identityHeader) {
        this.refusals = refusals;
        this.identityHeader = identityHeader;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException refused)
            throws IOException {
        boolean namedSomebody = request.getAttribute(CERTIFICATE_ATTRIBUTE) != null
                || (identityHeader != null && request.getHeader(identityHeader) != null);
        refusals.refused(null, namedSomebody ? AccessRefusal.UNRECOGNIZED_IDENTITY : AccessRefusal.ANONYMOUS);
        write(
                response,
                HttpServletResponse.SC_UNAUTHORIZED,
                namedSomebody
                        ? "the client certificate names no participant: a bank's is CN=ispb-<8 digits>, the operator's CN=operator"
                        : "present a client certificate issued by the switch's CA (mutual TLS)");
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException denied)
            throws IOException {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication != null && authentication.getPrincipal() instanceof CallerDetails details) {
            refusals.refused(details.caller(), AccessRefusal.OPERATOR_ONLY);
            write(response, HttpServletResponse.SC_FORBIDDEN, "only the switch operator may use this endpoint");
            return;
        }
        // The metrics scraper (the only other identity) outside /actuator/prometheus.
        refusals.refused(null, AccessRefusal.MONITORING_ONLY);
        write(response, HttpServletResponse.SC_FORBIDDEN, "this identity reads the metrics only");
    }

    private static void write(HttpServletResponse response, int status, String detail) throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.setStatus(status);
        response.setContentType("application/problem+json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(JSON.writeValueAsString(EdgeProblems.document(status, detail)));
    }
}
