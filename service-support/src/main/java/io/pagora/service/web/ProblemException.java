package io.pagora.service.web;

import java.util.Objects;

/**
 * A request a service answers with one of its {@link ProblemType}s (handled by {@link ProblemExceptionHandler}):
 * the client's mistake or an unknown resource, not an error of the service, so it is not logged as one and
 * carries no stack trace.
 */
public final class ProblemException extends RuntimeException {

    private final transient ProblemType type;

    public ProblemException(ProblemType type, String detail) {
        super(Objects.requireNonNull(detail, "detail"), null, false, false);
        this.type = Objects.requireNonNull(type, "type");
    }

    public ProblemType type() {
        return type;
    }
}
