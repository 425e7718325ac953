package io.pagora.payments.api.application.med;

import io.pagora.payments.api.domain.med.InfractionReport;
import io.pagora.payments.api.domain.med.ReportRefund;
import io.pagora.payments.api.domain.med.ReportStatus;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.med.RefundOutcome;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The switch's infraction reports and their traces, shared by every payment-api instance. */
public interface ReportStore {

    /** What {@link #open} found: the report stored now or before, or another report under the draft's key. */
    sealed interface Opened {
        record Stored(InfractionReport report, boolean created) implements Opened {}

        /** The payer's bank used this Idempotency-Key for another payment's report. */
        record KeyTaken() implements Opened {}
    }

    /** Stores {@code draft} (status FILING) unless its payment has a report: then answers that one. */
    Opened open(InfractionReport draft);

    /**
     * Stores the planned trace of a FILING report and makes it HOLDING, if it is still FILING: false when another
     * filing planned it first (then that plan is the one held).
     */
    boolean planned(InfractionReport report);

    /**
     * A HOLDING report's holds are taken, as {@code report}'s trace says (refused ones hold 0): it becomes OPEN. False
     * when it was not HOLDING any more (another filing opened it first).
     */
    boolean opened(InfractionReport report);

    /** Reports still FILING or HOLDING, filed before {@code before}: their filing was cut short. */
    List<InfractionReport> unfinished(Instant before, int limit);

    Optional<InfractionReport> find(PaymentId report);

    /** Moves the report from {@code from} to {@code to} if it is still there; false if another move came first. */
    boolean decide(PaymentId report, ReportStatus from, ReportStatus to, Instant at, String why);

    /** Moves an ACCEPTED report to REFUNDING with {@code refund}; false if it is not ACCEPTED any more. */
    boolean refunding(PaymentId report, ReportRefund refund);

    /**
     * A REFUNDING report's refunds went as {@code outcomes} say (by trace position): it becomes REFUNDED. False when
     * it was not REFUNDING any more (another request finished it first).
     */
    boolean refunded(PaymentId report, Map<Integer, RefundOutcome> outcomes);

    /** Reports REFUNDING since before {@code before}, oldest first: their refund was cut short. */
    List<InfractionReport> unrefunded(Instant before, int limit);

    /** Open reports whose analysis deadline passed at {@code now}, oldest first, at most {@code limit}. */
    List<InfractionReport> due(Instant now, int limit);
}
