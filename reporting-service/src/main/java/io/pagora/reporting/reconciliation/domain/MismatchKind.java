package io.pagora.reporting.reconciliation.domain;

/** How the read model and the ledger disagree. {@code tag} is the metric tag (a closed set). */
public enum MismatchKind {
    /** The read model says SETTLED, but not every post leg is in the ledger. */
    SETTLED_NOT_POSTED("settled_not_posted"),
    /** The read model says REJECTED or EXPIRED, but a post leg is in the ledger: money moved. */
    UNSETTLED_BUT_POSTED("unsettled_but_posted"),
    /** A post leg exists but with another amount or another pending leg than the read model's payment. */
    LEG_DIFFERS("leg_differs"),
    /** The payment is still not final well after its pending timeout: nobody will ever finish it. */
    STUCK("stuck"),
    /** An account's posted balance disagrees with the settled payments the read model shows for it. */
    BALANCE("balance"),
    /** The read model holds a payment the ledger could never settle (parties outside the account scheme). */
    INVALID("invalid"),
    /**
     * A projection transaction's rows are not those it inserted (its digest): a row planted, lost or re-keyed outside
     * the projection. The ledger is then asked about those rows, which reports what they claim wrongly.
     */
    UNPROJECTED("unprojected");

    public final String tag;

    MismatchKind(String tag) {
        this.tag = tag;
    }
}
