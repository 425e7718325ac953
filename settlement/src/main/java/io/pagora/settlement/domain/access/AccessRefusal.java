package io.pagora.settlement.domain.access;

/**
 * Why a request was refused for who sent it, as counted (never shown to the caller: a refused object is
 * answered like a missing one, so its existence cannot be probed).
 */
public enum AccessRefusal {
    /** No client certificate (or, in the plain-HTTP experiments profile, no identity header). */
    ANONYMOUS("anonymous"),
    /** A certificate from the trusted CA whose name is neither a bank's nor the operator's. */
    UNRECOGNIZED_IDENTITY("unrecognized-identity"),
    /** The metrics scraper's identity (no participant) on anything but the metrics. */
    MONITORING_ONLY("monitoring-only"),
    /** A function only the switch operator may use. */
    OPERATOR_ONLY("operator-only"),
    /** An account of another bank (or the central bank's, which only the operator reads). */
    FOREIGN_ACCOUNT("foreign-account"),
    /** Another bank's own records (its positions, its registration data). */
    FOREIGN_BANK("foreign-bank"),
    /** A payment in which the caller's bank is neither the payer's nor the payee's. */
    FOREIGN_PAYMENT("foreign-payment"),
    /** Another participant's stream or answers (the path names an ISPB that is not the caller's). */
    FOREIGN_STREAM("foreign-stream"),
    /** A function only a participant bank may use, for its own records (listing its payments): not the operator. */
    BANK_ONLY("bank-only");

    /** The metric tag value; stable. */
    public final String slug;

    AccessRefusal(String slug) {
        this.slug = slug;
    }
}
