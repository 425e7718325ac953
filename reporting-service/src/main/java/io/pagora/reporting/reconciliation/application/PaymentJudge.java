package io.pagora.reporting.reconciliation.application;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Transfer;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel.PaymentRow;
import io.pagora.reporting.reconciliation.domain.Mismatch;
import io.pagora.reporting.reconciliation.domain.MismatchKind;
import io.pagora.reporting.reconciliation.domain.PaymentFinality;
import io.pagora.reporting.reconciliation.domain.Verdict;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Judges read-model payment rows against their post legs in the ledger ({@link PaymentFinality}), in one ledger
 * lookup: the payment check judges the rows it walks, the balance check the latest payments of a reported account.
 */
final class PaymentJudge {

    /** The verdicts on some payments, kept until all are judged: a failing lookup leaves none half-recorded. */
    record Judged(long payments, long legsChecked, List<Mismatch> mismatches) {

        static final Judged NONE = new Judged(0, 0, List.of());

        void recordInto(RoundReport.Builder report) {
            report.paymentsChecked += payments;
            report.paymentLegsChecked += legsChecked;
            mismatches.forEach(report::mismatch);
        }

        /** For payments judged (and counted) before: only their legs and their mismatches are added. */
        void recordPointedInto(RoundReport.Builder report) {
            report.paymentLegsChecked += legsChecked;
            mismatches.forEach(report::mismatch);
        }
    }

    private final PacedLedger ledger;
    private final int legLookupIdsMax;

    PaymentJudge(PacedLedger ledger, int legLookupIdsMax) {
        this.ledger = ledger;
        this.legLookupIdsMax = legLookupIdsMax;
    }

    /**
     * Judges every row's parties, and the legs of the rows {@code withLegs} selects (one lookup: at most
     * {@code legLookupIdsMax} transfer ids between them).
     */
    Judged judge(List<PaymentRow> rows, Predicate<PaymentRow> withLegs) {
        List<Mismatch> mismatches = new ArrayList<>();
        List<Payment> legged = new ArrayList<>();
        List<PaymentStatus> leggedStatus = new ArrayList<>();
        List<Id128> postIds = new ArrayList<>();
        for (PaymentRow row : rows) {
            Payment payment;
            try {
                payment = new Payment(new PaymentId(row.paymentId()), row.payer(), row.payee(), row.amountCentavos());
            } catch (IllegalArgumentException e) {
                mismatches.add(new Mismatch(MismatchKind.INVALID, "payment " + row.paymentId(), e.getMessage()));
                continue;
            }
            if (withLegs.test(row)) {
                legged.add(payment);
                leggedStatus.add(row.status());
                postIds.addAll(PaymentFinality.postLegIds(payment));
            }
        }
        Check.that(postIds.size() <= legLookupIdsMax, "a lookup of %d transfer ids", postIds.size());
        Map<Id128, Transfer> posts = postIds.isEmpty() ? Map.of() : ledger.lookupTransfers(postIds);
        for (int i = 0; i < legged.size(); i++) {
            Verdict verdict = PaymentFinality.judge(legged.get(i), leggedStatus.get(i), posts);
            if (verdict instanceof Verdict.Disagrees disagrees) {
                mismatches.add(new Mismatch(
                        disagrees.kind(), "payment " + legged.get(i).id().value(), disagrees.detail()));
            }
        }
        return new Judged(rows.size(), legged.size(), mismatches);
    }
}
