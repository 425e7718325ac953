package io.pagora.payments.api.domain;

/**
 * Carries a {@link Refusal} out of request parsing, where unwinding is the natural control flow
 * (a malformed body ends the request). Application services return problems as values instead.
 */
public final class RefusalException extends RuntimeException {

    private final transient Refusal problem;

    public RefusalException(Refusal problem) {
        super(problem.type().slug + ": " + problem.detail(), null, false, false);
        this.problem = problem;
    }

    public RefusalException(RefusalReason type, String detail) {
        this(Refusal.of(type, detail));
    }

    public Refusal problem() {
        return problem;
    }
}
