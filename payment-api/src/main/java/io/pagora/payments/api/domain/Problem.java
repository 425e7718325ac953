package io.pagora.payments.api.domain;

import java.util.Objects;

/**
 * Why a request (or one item of a batch) was refused: a business outcome, returned as a value.
 * {@code field} names the offending JSON field or header when there is one, else it is null.
 */
public record Problem(ProblemType type, String detail, String field) {

    public Problem {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(detail, "detail");
    }

    public static Problem of(ProblemType type, String detail) {
        return new Problem(type, detail, null);
    }

    public static Problem ofField(ProblemType type, String field, String detail) {
        return new Problem(type, detail, field);
    }
}
