package io.pagora.service.web;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A request a service answers with one of its {@link ProblemType}s (handled by {@link ProblemExceptionHandler}):
 * the client's mistake or an unknown resource, not an error of the service, so it is not logged as one and
 * carries no stack trace. {@code field} names the offending JSON field, parameter or header when there is one.
 */
public final class ProblemException extends RuntimeException {

    private final transient ProblemType type;
    private final @Nullable String field;

    public ProblemException(ProblemType type, String detail) {
        this(type, null, detail);
    }

    public ProblemException(ProblemType type, @Nullable String field, String detail) {
        super(Objects.requireNonNull(detail, "detail"), null, false, false);
        this.type = Objects.requireNonNull(type, "type");
        this.field = field;
    }

    public ProblemType type() {
        return type;
    }

    public @Nullable String field() {
        return field;
    }
}
