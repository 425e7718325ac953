package io.pagora.reporting.reconciliation.domain;

/** One reconciled item (a payment or an account): it agrees, it cannot be judged yet, or it disagrees. */
public sealed interface Verdict {

    record Agrees() implements Verdict {}

    /** Not judged this round (the account moved while it was read, or a disagreement awaits confirmation). */
    record Deferred(String why) implements Verdict {}

    record Disagrees(MismatchKind kind, String detail) implements Verdict {}

    Verdict AGREES = new Agrees();
}
