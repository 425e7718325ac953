package io.pagora.reporting.reconciliation.application;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.reporting.domain.ProjectionDigest;
import io.pagora.reporting.reconciliation.domain.PaymentFlows;
import io.pagora.settlement.domain.BankId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/** What the reconciliation reads from the read model. Every call is one bounded, indexed query. */
public interface ReconciliationReadModel {

    /** One payment as projected. Parties outside the account scheme are kept: the reconciliation reports them. */
    record PaymentRow(Id128 paymentId, Id128 payer, Id128 payee, long amountCentavos, PaymentStatus status) {}

    /**
     * Where a payment stands in projection order: the transaction that inserted its row (its 64-bit xid, in
     * commit-safe order: see {@link #paymentsProjectedAfter}), then its id among that transaction's rows.
     */
    record ProjectionPosition(long transactionId, Id128 paymentId) implements Comparable<ProjectionPosition> {

        public ProjectionPosition {
            Check.that(transactionId >= 0, "a transaction id is not negative: %d", transactionId);
        }

        /** Before every payment the transaction {@code transactionId} inserted. */
        public static ProjectionPosition before(long transactionId) {
            return new ProjectionPosition(transactionId, Id128.ZERO);
        }

        @Override
        public int compareTo(ProjectionPosition other) {
            int byTransaction = Long.compare(transactionId, other.transactionId);
            return byTransaction != 0 ? byTransaction : paymentId.compareTo(other.paymentId);
        }
    }

    /** A payment row with where and when it was projected, and when it was accepted. */
    record ProjectedPayment(ProjectionPosition position, PaymentRow row, Instant acceptedAt, Instant projectedAt) {

        /** When the read model could first know it: it cannot be expected final before this plus final-within. */
        public Instant visibleAt() {
            return acceptedAt.isAfter(projectedAt) ? acceptedAt : projectedAt;
        }
    }

    /**
     * Payments after {@code after} in projection order, at most {@code limit}, and only those inserted by
     * transactions older than every transaction still running: a row that commits later can never land behind
     * a position this answered, whatever its acceptance time and whichever consumer inserted it.
     */
    List<ProjectedPayment> paymentsProjectedAfter(ProjectionPosition after, int limit);

    /**
     * Where to start: before the payments accepted at or after {@code acceptedFrom} (payment ids are
     * time-ordered; the first few thousand of them, as they may have been projected out of order), or, when
     * none was, before whatever is projected from now on.
     */
    ProjectionPosition startPosition(Instant acceptedFrom);

    /**
     * The projection's totals at one snapshot, and which payments of a window that snapshot holds SETTLED.
     *
     * @param accountFlows the totals of the customers asked for (those without a settled payment are left out)
     * @param bankFlows the totals of every bank with a settled interbank payment: sent and received
     * @param settled the window's payments the snapshot holds SETTLED
     */
    record FlowsSnapshot(
            Map<Id128, PaymentFlows> accountFlows, Map<BankId, PaymentFlows> bankFlows, Set<Id128> settled) {}

    /**
     * In one snapshot (one repeatable-read transaction): the totals of these customers and of every bank, then
     * {@code window} runs (after the snapshot was taken: what it looks up elsewhere is at least as recent), then which
     * of the payments it names the same snapshot holds SETTLED. Each statement is one index look-up per id.
     */
    FlowsSnapshot flowsAtOneSnapshot(List<Id128> customers, Supplier<List<Id128>> window);

    /**
     * The transaction after which every projection transaction wrote the digest of the rows it inserted (the
     * migration that introduced them): rows of earlier transactions have none.
     */
    long digestsAfter();

    /** The digests the projection wrote for these transactions; a transaction without one is left out. */
    Map<Long, ProjectionDigest> digestsOf(List<Long> transactionIds);

    /** The payments one transaction inserted, in payment id order, at most {@code limit}. */
    List<PaymentRow> paymentsInsertedBy(long transactionId, int limit);

    /** The latest settled payments of an account, newest first, at most {@code limit}: what its statement says. */
    List<PaymentRow> settledPaymentsOf(Id128 account, int limit);
}
