package io.pagora.payments.api.domain.med;

import io.pagora.kernel.Check;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.med.FundsTrace;
import java.time.Instant;

/**
 * An infraction report on a settled payment (MED, docs/med.md), as the switch keeps it.
 *
 * @param id derived from the payment's ({@link #idOf}): one report per payment, and a retried filing names the same
 *     holds
 * @param cutTimestamp the ledger time the trace looked up to
 * @param trace where the money was found and what is held (null while {@code FILING})
 * @param decidedAt when it was accepted, rejected or escalated (null while open)
 * @param refund its refund, once its payer's bank asked for it (null before)
 */
public record InfractionReport(
        PaymentId id,
        PaymentId payment,
        BankId payerBank,
        BankId payeeBank,
        long amountCentavos,
        InfractionReason reason,
        String details,
        ReportStatus status,
        Instant filedAt,
        Instant analyseBy,
        Instant holdUntil,
        Instant decidedAt,
        String decisionReason,
        long cutTimestamp,
        String requestKey,
        FundsTrace trace,
        ReportRefund refund) {

    /** The most characters of a report's details, or of an analysis's reason. */
    public static final int TEXT_CHARS_MAX = 1_000;

    public InfractionReport {
        Check.that(amountCentavos > 0, "a report on a payment of %d", amountCentavos);
        Check.that(analyseBy.isAfter(filedAt) && !holdUntil.isBefore(analyseBy), "filed, analysed, held in order");
        Check.that((status == ReportStatus.FILING) == (trace == null), "a trace once filed: %s", status);
        Check.that(
                (status == ReportStatus.REFUNDING || status == ReportStatus.REFUNDED) == (refund != null),
                "a refund once asked for: %s",
                status);
    }

    /**
     * The report id of {@code payment}: the first 128 bits of SHA-256 of {@code "infraction-report:" + payment}, with
     * its low byte cleared (the holds' ids use it, {@code HoldIds}).
     */
    public static PaymentId idOf(PaymentId payment) {
        return PaymentId.derived("infraction-report:" + payment);
    }

    public InfractionReport with(ReportStatus next, Instant at, String why) {
        return copy(next, at, why, trace, refund);
    }

    public InfractionReport traced(ReportStatus next, FundsTrace found) {
        return copy(next, decidedAt, decisionReason, found, refund);
    }

    public InfractionReport refunding(ReportStatus next, ReportRefund asked) {
        return copy(next, decidedAt, decisionReason, trace, asked);
    }

    private InfractionReport copy(ReportStatus next, Instant at, String why, FundsTrace found, ReportRefund asked) {
        return new InfractionReport(
                id,
                payment,
                payerBank,
                payeeBank,
                amountCentavos,
                reason,
                details,
                next,
                filedAt,
                analyseBy,
                holdUntil,
                at,
                why,
                cutTimestamp,
                requestKey,
                found,
                asked);
    }

    public long heldCentavos() {
        return trace == null ? 0 : trace.heldCentavos();
    }
}
