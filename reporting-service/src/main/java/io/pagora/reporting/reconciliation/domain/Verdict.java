package io.pagora.reporting.reconciliation.domain;

/** One reconciled item (a payment or an account): it agrees, it cannot be judged yet, or it disagrees. */
public sealed interface Verdict {

    record Agrees() implements Verdict {}

    /** Not judged this round (a disagreement awaits confirmation by a second cut). */
    record Deferred(String why) implements Verdict {}

    record Disagrees(MismatchKind kind, String detail) implements Verdict {}

    Verdict AGREES = new Agrees();
}
