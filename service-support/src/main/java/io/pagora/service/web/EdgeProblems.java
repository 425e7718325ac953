package io.pagora.service.web;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.ProblemDetail;

/**
 * The Pagora problem types of errors the HTTP layer itself answers (no such path, wrong method, bad
 * Accept, malformed HTTP), by status, so that every service names them alike: {@value #TYPE_BASE}{@code <slug>}.
 */
public final class EdgeProblems {

    public static final String TYPE_BASE = "https://pagora.io/problems/";

    /** A problem type: its slug and title. */
    public record Type(String slug, String title) {

        public URI uri() {
            return URI.create(TYPE_BASE + slug);
        }
    }

    private EdgeProblems() {}

    /** The type for an error status the HTTP layer answers; other client errors are bad requests. */
    public static Type typeOf(int status) {
        return switch (status) {
            case 404 -> new Type("not-found", "Not found");
            case 405 -> new Type("method-not-allowed", "Method not allowed");
            case 406 -> new Type("not-acceptable", "Not acceptable");
            case 413 -> new Type("payload-too-large", "Request body too large");
            case 415 -> new Type("unsupported-media-type", "Unsupported media type");
            default -> status >= 500 ? new Type("internal-error", "Internal error") : new Type("bad-request", "Bad request");
        };
    }

    /** Gives a framework's problem (Spring MVC's 404, 405, 406 ...) the Pagora type of its status. */
    public static ProblemDetail retyped(ProblemDetail detail) {
        Type type = typeOf(detail.getStatus());
        detail.setType(type.uri());
        detail.setTitle(type.title());
        return detail;
    }

    /** An RFC 9457 document as a map, for writers without Spring's message converters. */
    static Map<String, Object> document(int status, String detail) {
        Type type = typeOf(status);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type.uri().toString());
        body.put("title", type.title());
        body.put("status", status);
        body.put("detail", detail);
        return body;
    }
}
