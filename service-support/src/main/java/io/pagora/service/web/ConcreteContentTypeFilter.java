package io.pagora.service.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Hides a {@code Content-Type} that is not one concrete media type ({@code *}{@code /*}, {@code application/*},
 * unparsable) from the rest of the request's handling, keeping it in {@value #REJECTED_CONTENT_TYPE}:
 * Spring MVC asserts that a request's content type is concrete whenever it writes any response body, so
 * such a header turned even a GET into a 500. A handler that reads a body refuses it
 * with 415 naming the header; a request without a body ignores it, as it ignores any Content-Type.
 */
public final class ConcreteContentTypeFilter extends OncePerRequestFilter {

    public static final String REJECTED_CONTENT_TYPE = ConcreteContentTypeFilter.class.getName() + ".rejected";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String contentType = request.getContentType();
        if (contentType == null || isConcrete(contentType)) {
            chain.doFilter(request, response);
            return;
        }
        request.setAttribute(REJECTED_CONTENT_TYPE, contentType);
        chain.doFilter(new WithoutContentType(request), response);
    }

    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }

    static boolean isConcrete(String contentType) {
        try {
            return MediaType.parseMediaType(contentType).isConcrete();
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }

    private static final class WithoutContentType extends HttpServletRequestWrapper {

        WithoutContentType(HttpServletRequest request) {
            super(request);
        }

        @Override
        public String getContentType() {
            return null;
        }

        @Override
        public String getHeader(String name) {
            return HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name) ? null : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
        }

        @Override
        public Enumeration<String> getHeaderNames() {
            List<String> names = Collections.list(super.getHeaderNames());
            names.removeIf(HttpHeaders.CONTENT_TYPE::equalsIgnoreCase);
            return Collections.enumeration(names);
        }
    }
}
