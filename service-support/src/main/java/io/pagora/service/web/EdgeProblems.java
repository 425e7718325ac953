package io.pagora.service.web;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;

/**
 * The Pagora problem types of errors the HTTP layer itself answers (no such path, wrong method, bad
 * Accept, malformed HTTP), by status, so that every service names them alike: {@value ProblemType#BASE}{@code <slug>}.
 */
public final class EdgeProblems {

    public static final ProblemType BAD_REQUEST = new ProblemType("bad-request", "Bad request", HttpStatus.BAD_REQUEST);
    /** A header value with a byte outside visible ASCII (and tab): the document's {@code field} names the header. */
    public static final ProblemType INVALID_HEADER =
            new ProblemType("invalid-header", "Invalid header value", HttpStatus.BAD_REQUEST);
    /** No identity: no client certificate, or one that names no participant. */
    public static final ProblemType UNAUTHENTICATED =
            new ProblemType("unauthenticated", "Client certificate required", HttpStatus.UNAUTHORIZED);
    /** An identity that may not use this function (an operator-only endpoint called by a bank). */
    public static final ProblemType FORBIDDEN = new ProblemType("forbidden", "Forbidden", HttpStatus.FORBIDDEN);

    public static final ProblemType NOT_FOUND = new ProblemType("not-found", "Not found", HttpStatus.NOT_FOUND);
    public static final ProblemType METHOD_NOT_ALLOWED =
            new ProblemType("method-not-allowed", "Method not allowed", HttpStatus.METHOD_NOT_ALLOWED);
    public static final ProblemType NOT_ACCEPTABLE =
            new ProblemType("not-acceptable", "Not acceptable", HttpStatus.NOT_ACCEPTABLE);
    public static final ProblemType PAYLOAD_TOO_LARGE =
            new ProblemType("payload-too-large", "Request body too large", HttpStatus.CONTENT_TOO_LARGE);
    public static final ProblemType UNSUPPORTED_MEDIA_TYPE =
            new ProblemType("unsupported-media-type", "Unsupported media type", HttpStatus.UNSUPPORTED_MEDIA_TYPE);
    /** A Range beyond a static resource (reporting's OpenAPI document is a file, served with HTTP's ranges). */
    public static final ProblemType RANGE_NOT_SATISFIABLE = new ProblemType(
            "range-not-satisfiable", "Range not satisfiable", HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE);
    /**
     * The caller holds its connections already ({@link ParticipantConnectionsFilter}): 429, and the connection it came
     * on is closed.
     */
    public static final ProblemType PARTICIPANT_CONNECTIONS_LIMITED = new ProblemType(
            "participant-connections-limited",
            "Too many connections for this participant",
            HttpStatus.TOO_MANY_REQUESTS);

    public static final ProblemType INTERNAL_ERROR =
            new ProblemType("internal-error", "Internal error", HttpStatus.INTERNAL_SERVER_ERROR);

    private EdgeProblems() {}

    /** The type for an error status the HTTP layer answers; other client errors are bad requests. */
    public static ProblemType typeOf(int status) {
        return switch (status) {
            case 401 -> UNAUTHENTICATED;
            case 403 -> FORBIDDEN;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 413 -> PAYLOAD_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 416 -> RANGE_NOT_SATISFIABLE;
            default -> status >= 500 ? INTERNAL_ERROR : BAD_REQUEST;
        };
    }

    /** An RFC 9457 document as a map, for writers without Spring's message converters. */
    public static Map<String, Object> document(int status, String detail) {
        ProblemType type = typeOf(status);
        Map<String, Object> body = document(type, detail);
        body.put("status", status);
        return body;
    }

    /** An RFC 9457 document of {@code type}, with its status, as a map. */
    public static Map<String, Object> document(ProblemType type, String detail) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type.uri().toString());
        body.put("title", type.title());
        body.put("status", type.status().value());
        body.put("detail", detail);
        return body;
    }
}
