package io.pagora.service.web;

import java.net.URI;
import java.util.Objects;
import org.springframework.http.HttpStatus;

/**
 * A Pagora problem type, as clients see it in an RFC 9457 document: a stable {@code type} URI
 * ({@value #BASE}{@code <slug>}), its title and the status it is answered with. Clients branch on the type,
 * never on the human-readable detail, so a slug never changes. Each service declares its own types (constants of
 * this); the errors every service answers alike are {@link EdgeProblems}'.
 */
public record ProblemType(String slug, String title, HttpStatus status) {

    public static final String BASE = "https://pagora.io/problems/";

    public ProblemType {
        Objects.requireNonNull(slug, "slug");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(status, "status");
    }

    public URI uri() {
        return URI.create(BASE + slug);
    }
}
