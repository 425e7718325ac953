package io.pagora.reporting.reconciliation.application;

import io.pagora.kernel.Id128;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.reporting.domain.ProjectionDigest;
import io.pagora.reporting.reconciliation.domain.PaymentFlows;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The read model as the reconciliation reads it, in memory: payments in projection order, the digests the projection
 * wrote, and the settled totals its statements and positions add up. Every transaction is committed.
 */
final class InMemoryReadModel implements ReconciliationReadModel {

    private final List<ProjectedPayment> payments = new ArrayList<>();
    private final Map<Long, ProjectionDigest> digests = new HashMap<>();
    /** Transactions after this one wrote digests; unsigned, so -1 (the largest) means none is compared. */
    long digestsAfter = -1;
    /** Thrown by the next payment read, when set. */
    RuntimeException failure;

    /** A payment inserted by transaction {@code transactionId}, accepted and projected at {@code at}. */
    ProjectedPayment add(long transactionId, PaymentRow row, Instant at) {
        ProjectedPayment payment =
                new ProjectedPayment(new ProjectionPosition(transactionId, row.paymentId()), row, at, at);
        payments.add(payment);
        payments.sort(Comparator.comparing(ProjectedPayment::position));
        return payment;
    }

    void writeDigest(long transactionId, ProjectionDigest digest) {
        digests.put(transactionId, digest);
    }

    @Override
    public List<ProjectedPayment> paymentsProjectedAfter(ProjectionPosition after, int limit) {
        if (failure != null) {
            RuntimeException thrown = failure;
            failure = null;
            throw thrown;
        }
        return payments.stream()
                .filter(p -> p.position().compareTo(after) > 0)
                .limit(limit)
                .toList();
    }

    @Override
    public ProjectionPosition startPosition(Instant acceptedFrom) {
        return ProjectionPosition.before(0);
    }

    @Override
    public FlowsSnapshot flowsAtOneSnapshot(List<Id128> customers, Supplier<List<Id128>> window) {
        Map<Id128, PaymentFlows> accountFlows = new HashMap<>();
        Map<BankId, PaymentFlows> bankFlows = new HashMap<>();
        for (PaymentRow row : settled()) {
            if (customers.contains(row.payer())) {
                accountFlows.merge(row.payer(), new PaymentFlows(row.amountCentavos(), 0), InMemoryReadModel::sum);
            }
            if (customers.contains(row.payee())) {
                accountFlows.merge(row.payee(), new PaymentFlows(0, row.amountCentavos()), InMemoryReadModel::sum);
            }
            Optional<BankId> from = ChartOfAccounts.bankOf(row.payer());
            Optional<BankId> to = ChartOfAccounts.bankOf(row.payee());
            if (!from.equals(to)) {
                bankFlows.merge(from.orElseThrow(), new PaymentFlows(row.amountCentavos(), 0), InMemoryReadModel::sum);
                bankFlows.merge(to.orElseThrow(), new PaymentFlows(0, row.amountCentavos()), InMemoryReadModel::sum);
            }
        }
        Set<Id128> held = new HashSet<>(window.get());
        held.retainAll(settled().stream().map(PaymentRow::paymentId).toList());
        return new FlowsSnapshot(accountFlows, bankFlows, held);
    }

    @Override
    public long digestsAfter() {
        return digestsAfter;
    }

    @Override
    public Map<Long, ProjectionDigest> digestsOf(List<Long> transactionIds) {
        Map<Long, ProjectionDigest> found = new HashMap<>();
        transactionIds.stream().filter(digests::containsKey).forEach(id -> found.put(id, digests.get(id)));
        return found;
    }

    @Override
    public List<PaymentRow> paymentsInsertedBy(long transactionId, int limit) {
        return payments.stream()
                .filter(p -> p.position().transactionId() == transactionId)
                .limit(limit)
                .map(ProjectedPayment::row)
                .toList();
    }

    @Override
    public List<PaymentRow> settledPaymentsOf(Id128 account, int limit) {
        return settled().stream()
                .filter(row -> row.payer().equals(account) || row.payee().equals(account))
                .toList()
                .reversed()
                .stream()
                .limit(limit)
                .toList();
    }

    private List<PaymentRow> settled() {
        return payments.stream()
                .map(ProjectedPayment::row)
                .filter(row -> row.status() == PaymentStatus.SETTLED)
                .toList();
    }

    private static PaymentFlows sum(PaymentFlows a, PaymentFlows b) {
        return new PaymentFlows(
                a.outgoingCentavos() + b.outgoingCentavos(), a.incomingCentavos() + b.incomingCentavos());
    }
}
