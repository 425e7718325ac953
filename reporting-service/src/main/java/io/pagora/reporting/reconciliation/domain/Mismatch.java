package io.pagora.reporting.reconciliation.domain;

/** One disagreement found: its kind, the payment or account it is about, and the evidence. */
public record Mismatch(MismatchKind kind, String subject, String detail) {

    @Override
    public String toString() {
        return kind.tag + " " + subject + ": " + detail;
    }
}
