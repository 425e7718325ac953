package io.pagora.reporting.reconciliation.application;

import io.pagora.kernel.Check;
import io.pagora.reporting.domain.ProjectionDigest;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel.PaymentRow;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel.ProjectedPayment;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel.ProjectionPosition;
import java.util.List;

/**
 * The rows the walk in projection order has judged so far of the transaction it is in, added up as the projection
 * added them up ({@link ProjectionDigest}). Rows come in transaction order, so a transaction is complete once the walk
 * judged a row of a later one, or judged everything the read model holds below its oldest running transaction.
 * {@code whole} is false for a transaction whose first rows the walk did not see (it started inside it): that one is
 * never compared. Immutable: a round that fails before moving its cursor keeps the tally it had.
 *
 * @param transactionId the transaction the walk is in
 * @param rows its rows judged so far
 * @param whole whether the walk saw it from its first row
 */
record ProjectionTally(long transactionId, ProjectionDigest rows, boolean whole) {

    /** A transaction whose rows the walk has all judged, added up. */
    record Complete(long transactionId, ProjectionDigest rows) {}

    /** Where a walk starts: a position before every row of its transaction starts a whole tally. */
    static ProjectionTally startingAt(ProjectionPosition position) {
        return new ProjectionTally(
                position.transactionId(),
                ProjectionDigest.NONE,
                position.paymentId().isZero());
    }

    /**
     * Adds judged rows (in projection order, after everything added before).
     *
     * @param complete receives each whole transaction the walk has now passed
     */
    ProjectionTally add(List<ProjectedPayment> judged, List<Complete> complete) {
        long transaction = transactionId;
        ProjectionDigest sum = rows;
        boolean seenWhole = whole;
        for (ProjectedPayment payment : judged) {
            long next = payment.position().transactionId();
            Check.that(next >= transaction, "the walk goes back from transaction %d to %d", transaction, next);
            if (next != transaction) {
                if (seenWhole && sum.payments() > 0) {
                    complete.add(new Complete(transaction, sum));
                }
                transaction = next;
                sum = ProjectionDigest.NONE;
                seenWhole = true;
            }
            PaymentRow row = payment.row();
            sum = sum.plus(row.paymentId(), row.payer(), row.payee(), row.amountCentavos());
        }
        return new ProjectionTally(transaction, sum, seenWhole);
    }

    /**
     * The walk judged every row below the oldest running transaction: the one it is in has committed (or aborted)
     * and has no more rows to come.
     *
     * @param complete receives it, if whole
     */
    ProjectionTally walkedToEnd(List<Complete> complete) {
        if (whole && rows.payments() > 0) {
            complete.add(new Complete(transactionId, rows));
        }
        return new ProjectionTally(transactionId, ProjectionDigest.NONE, false);
    }
}
