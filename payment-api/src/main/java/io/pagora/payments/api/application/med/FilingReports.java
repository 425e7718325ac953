package io.pagora.payments.api.application.med;

import io.pagora.payments.api.application.returns.OriginalPayments;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.OriginalPayment;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.med.InfractionReason;
import io.pagora.payments.api.domain.med.InfractionReport;
import io.pagora.payments.api.domain.med.ReportStatus;
import io.pagora.settlement.application.HoldingFunds;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.access.Caller;
import io.pagora.settlement.domain.med.FundsTrace;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * The payer's bank reports a settled payment (MED, docs/med.md): the report is stored, the payment's money traced
 * and held in the ledger where it is found, and the payee's bank and every bank holding some of it told.
 *
 * <p>Crash-safe in steps, each repeatable: the report is stored FILING with its id (derived from the payment) and its
 * ledger cut; the trace is planned and stored, and the report is HOLDING (a compare-and-set: of two filings racing,
 * one plan is stored and both hold it); the plan's holds are taken (ids derived from the report's, so the ledger takes
 * each once) and the report is OPEN. A retry with the same Idempotency-Key, or {@link #finishUnfinished}, finishes
 * whatever step it finds.
 */
public final class FilingReports {

    public sealed interface Filing {
        record Filed(InfractionReport report, boolean created) implements Filing {}

        record Refused(Refusal problem) implements Filing {}
    }

    private final OriginalPayments originals;
    private final ReportStore store;
    private final ReportNotices notices;
    private final HoldingFunds holding;
    private final MedPolicy policy;
    private final Clock clock;

    public FilingReports(
            OriginalPayments originals,
            ReportStore store,
            ReportNotices notices,
            HoldingFunds holding,
            MedPolicy policy,
            Clock clock) {
        this.originals = originals;
        this.store = store;
        this.notices = notices;
        this.holding = holding;
        this.policy = policy;
        this.clock = clock;
    }

    public Filing file(
            Caller caller, IdempotencyKey key, PaymentId paymentId, InfractionReason reason, String details) {
        if (!(caller instanceof Caller.Bank(BankId bank))) {
            return unknown(paymentId);
        }
        Optional<OriginalPayment> found = Optional.ofNullable(originals
                .find(
                        List.of(paymentId),
                        payment -> ChartOfAccounts.bankOf(payment.payer())
                                .map(bank::equals)
                                .orElse(false))
                .get(paymentId));
        if (found.isEmpty()) {
            return unknown(paymentId);
        }
        OriginalPayment original = found.get();
        if (!original.settled()) {
            return refused(Refusal.of(
                    RefusalReason.PAYMENT_NOT_SETTLED, "payment " + paymentId + " is not settled: nothing to hold"));
        }
        if (original.payment().returnOf() != null) {
            return refused(Refusal.of(
                    RefusalReason.REPORT_OF_A_RETURN,
                    "payment " + paymentId + " is a return of "
                            + original.payment().returnOf().original() + ": report that payment"));
        }
        Instant at = clock.instant();
        Instant now = at.truncatedTo(ChronoUnit.MICROS); // as stored: the report answered is the report read later
        if (original.settledAt().plus(policy.reportWindow()).isBefore(now)) {
            return refused(Refusal.of(
                    RefusalReason.REPORT_WINDOW_CLOSED,
                    "payment " + paymentId + " settled at " + original.settledAt() + ", more than "
                            + policy.reportWindow().toDays() + " days ago"));
        }
        InfractionReport draft = new InfractionReport(
                InfractionReport.idOf(paymentId),
                paymentId,
                bank,
                ChartOfAccounts.bankOf(original.payment().payee()).orElseThrow(),
                original.payment().amountCentavos(),
                reason,
                details,
                ReportStatus.FILING,
                now,
                now.plus(policy.analysisPeriod()),
                now.plus(policy.hold()),
                null,
                null,
                at.getEpochSecond() * 1_000_000_000L + at.getNano(),
                key.value(),
                null,
                null);
        return switch (store.open(draft)) {
            case ReportStore.Opened.KeyTaken taken ->
                refused(Refusal.of(
                        RefusalReason.IDEMPOTENCY_KEY_REUSED,
                        "this Idempotency-Key reported another payment; use a new key for a new report"));
            case ReportStore.Opened.Stored stored
            when !stored.report().requestKey().equals(key.value()) ->
                refused(Refusal.of(
                        RefusalReason.PAYMENT_ALREADY_REPORTED,
                        "payment " + paymentId + " is reported already: report "
                                + stored.report().id()));
            case ReportStore.Opened.Stored stored -> new Filing.Filed(finish(stored.report()), stored.created());
        };
    }

    /** Reports finished per round, at most: the next round takes the rest. */
    static final int UNFINISHED_PER_ROUND_MAX = 64;

    /**
     * Finishes the filings cut short (the filing bank's call failed or its instance died) more than {@code olderThan}
     * ago: their holds are taken and their banks told, as the bank's retry would. Answers how many it finished.
     */
    public int finishUnfinished(java.time.Duration olderThan) {
        int finished = 0;
        for (InfractionReport report : store.unfinished(clock.instant().minus(olderThan), UNFINISHED_PER_ROUND_MAX)) {
            finish(report);
            finished++;
        }
        return finished;
    }

    /** Plans and takes the holds of a FILING or HOLDING report and tells its banks; an OPEN or later one is told again. */
    private InfractionReport finish(InfractionReport report) {
        InfractionReport current = report;
        if (current.status() == ReportStatus.FILING) {
            FundsTrace plan = holding.plan(current.payment(), current.cutTimestamp(), policy.limits());
            InfractionReport planned = current.traced(ReportStatus.HOLDING, plan);
            // Stored: the report is what this filing planned; else another filing's plan is the one held.
            current = store.planned(planned) ? planned : store.find(report.id()).orElseThrow();
        }
        if (current.status() == ReportStatus.HOLDING) {
            FundsTrace held = holding.hold(
                    current.id(), current.trace(), Math.toIntExact(policy.hold().toSeconds()));
            InfractionReport opened = current.traced(ReportStatus.OPEN, held);
            current = store.opened(opened) ? opened : store.find(report.id()).orElseThrow();
        }
        notices.tell(current);
        return current;
    }

    private static Filing unknown(PaymentId payment) {
        return refused(Refusal.of(
                RefusalReason.UNKNOWN_PAYMENT, "no settled payment " + payment + " of this bank's customers"));
    }

    private static Filing refused(Refusal refusal) {
        return new Filing.Refused(refusal);
    }
}
