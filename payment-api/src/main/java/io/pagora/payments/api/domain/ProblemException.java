package io.pagora.payments.api.domain;

/**
 * Carries a {@link Problem} out of request parsing, where unwinding is the natural control flow
 * (a malformed body ends the request). Application services return problems as values instead.
 */
public final class ProblemException extends RuntimeException {

    private final transient Problem problem;

    public ProblemException(Problem problem) {
        super(problem.type().slug + ": " + problem.detail(), null, false, false);
        this.problem = problem;
    }

    public ProblemException(ProblemType type, String detail) {
        this(Problem.of(type, detail));
    }

    public Problem problem() {
        return problem;
    }
}
