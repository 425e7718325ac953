package io.pagora.service.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Enumeration;
import java.util.Map;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses a request whose header values hold a byte outside visible ASCII (and tab) with 400
 * {@code invalid-header} naming the header, before anything reads them. Tomcat passes such bytes on (as
 * ISO-8859-1 characters); Spring Security's firewall then throws when a handler or Spring MVC reads the header
 * (0x80-0x9F read as C1 controls, e.g. curl's UTF-8 {@code ×ø}: C3 97 C3 B8), which only the generic handler would catch,
 * as a 500. No header of these APIs carries anything but ASCII (Idempotency-Key, media types, the certificate's
 * identity), so one rule for every header, whoever reads it, is the predictable answer.
 */
public final class AsciiHeadersFilter extends OncePerRequestFilter {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Header names are only ever a few; a request with more is cut off by Tomcat's header-section limit first. */
    private static final int HEADER_LINES_MAX = 1_000;

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String invalid = firstInvalidHeader(request);
        if (invalid == null) {
            chain.doFilter(request, response);
            return;
        }
        Map<String, Object> problem = EdgeProblems.document(
                EdgeProblems.INVALID_HEADER,
                "the " + invalid
                        + " header's value holds a byte outside visible ASCII; header values are ASCII (send text as ASCII)");
        problem.put("field", invalid);
        response.setStatus(EdgeProblems.INVALID_HEADER.status().value());
        response.setContentType("application/problem+json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(JSON.writeValueAsString(problem));
    }

    /** The name of the first header with a value outside visible ASCII and tab, or null. */
    static String firstInvalidHeader(HttpServletRequest request) {
        Enumeration<String> names = request.getHeaderNames();
        int lines = 0;
        while (names.hasMoreElements() && lines < HEADER_LINES_MAX) {
            String name = names.nextElement();
            Enumeration<String> values = request.getHeaders(name);
            while (values.hasMoreElements() && lines < HEADER_LINES_MAX) {
                lines++;
                if (!isVisibleAscii(values.nextElement())) {
                    return printable(name);
                }
            }
        }
        return null;
    }

    static boolean isVisibleAscii(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    /** Tomcat refuses a header name outside a token's characters; this keeps the answer printable all the same. */
    private static String printable(String name) {
        return name.replaceAll("[^\\x21-\\x7E]", "?");
    }
}
