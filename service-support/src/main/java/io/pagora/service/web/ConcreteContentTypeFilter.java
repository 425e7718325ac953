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
 *
 * <p>Also hides an {@code Accept} header without a media range (an empty value: a list of none), which then reads as
 * no Accept, "anything": Spring Boot's Prometheus endpoint failed on an empty one with a NullPointerException (a 500).
 */
public final class ConcreteContentTypeFilter extends OncePerRequestFilter {

    public static final String REJECTED_CONTENT_TYPE = ConcreteContentTypeFilter.class.getName() + ".rejected";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String contentType = request.getContentType();
        boolean hideContentType = contentType != null && !isConcrete(contentType);
        boolean hideAccept = hasBlankAccept(request);
        if (!hideContentType && !hideAccept) {
            chain.doFilter(request, response);
            return;
        }
        if (hideContentType) {
            request.setAttribute(REJECTED_CONTENT_TYPE, contentType);
        }
        chain.doFilter(new WithoutHeaders(request, hideContentType, hideAccept), response);
    }

    private static boolean hasBlankAccept(HttpServletRequest request) {
        String accept = request.getHeader(HttpHeaders.ACCEPT);
        return accept != null && accept.replace(",", "").isBlank();
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

    private static final class WithoutHeaders extends HttpServletRequestWrapper {

        private final boolean contentType;
        private final boolean accept;

        WithoutHeaders(HttpServletRequest request, boolean contentType, boolean accept) {
            super(request);
            this.contentType = contentType;
            this.accept = accept;
        }

        private boolean hidden(String name) {
            return (contentType && HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name))
                    || (accept && HttpHeaders.ACCEPT.equalsIgnoreCase(name));
        }

        @Override
        public String getContentType() {
            return contentType ? null : super.getContentType();
        }

        @Override
        public String getHeader(String name) {
            return hidden(name) ? null : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return hidden(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
        }

        @Override
        public Enumeration<String> getHeaderNames() {
            List<String> names = Collections.list(super.getHeaderNames());
            names.removeIf(this::hidden);
            return Collections.enumeration(names);
        }
    }
}
