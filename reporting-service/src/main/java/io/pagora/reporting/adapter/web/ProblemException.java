package io.pagora.reporting.adapter.web;

import java.net.URI;
import org.springframework.http.HttpStatus;

/**
 * A request the service answers with an RFC 9457 problem: bad input (400) or an unknown resource (404).
 * Not an error of the service, so it is not logged as one.
 */
public final class ProblemException extends RuntimeException {

    public static final String TYPE_BASE = "https://pagora.io/problems/";

    private final HttpStatus status;
    private final URI type;
    private final String title;

    private ProblemException(HttpStatus status, String slug, String title, String detail) {
        super(detail, null, false, false);
        this.status = status;
        this.type = URI.create(TYPE_BASE + slug);
        this.title = title;
    }

    public static ProblemException badRequest(String slug, String title, String detail) {
        return new ProblemException(HttpStatus.BAD_REQUEST, slug, title, detail);
    }

    public static ProblemException notFound(String slug, String title, String detail) {
        return new ProblemException(HttpStatus.NOT_FOUND, slug, title, detail);
    }

    public HttpStatus status() {
        return status;
    }

    public URI type() {
        return type;
    }

    public String title() {
        return title;
    }
}
