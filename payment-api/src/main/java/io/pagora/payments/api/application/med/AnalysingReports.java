package io.pagora.payments.api.application.med;

import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.med.InfractionReport;
import io.pagora.payments.api.domain.med.ReportStatus;
import io.pagora.settlement.application.HoldingFunds;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.access.Caller;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * The payee's bank analyses a report by its deadline (MED, docs/med.md): rejected, its holds are released at once;
 * accepted, they stay for the refund. A report nobody analysed in time is escalated to the operator, who then decides
 * it the same way. Each decision is a compare-and-set on the report's status: of two racing, one is applied.
 */
public final class AnalysingReports {

    public enum Decision {
        ACCEPT,
        REJECT
    }

    public sealed interface Analysis {
        record Decided(InfractionReport report, boolean now) implements Analysis {}

        record Refused(Refusal problem) implements Analysis {}
    }

    /** Reports escalated per round, at most: the next round takes the rest. */
    static final int DUE_PER_ROUND_MAX = 256;

    private final ReportStore store;
    private final ReportNotices notices;
    private final HoldingFunds holding;
    private final Clock clock;

    public AnalysingReports(ReportStore store, ReportNotices notices, HoldingFunds holding, Clock clock) {
        this.store = store;
        this.notices = notices;
        this.holding = holding;
        this.clock = clock;
    }

    public Analysis analyse(Caller caller, PaymentId reportId, Decision decision, String why) {
        Optional<InfractionReport> found =
                store.find(reportId).filter(report -> ReadingReports.visible(caller, report));
        if (found.isEmpty() || !found.get().status().filed()) {
            return new Analysis.Refused(ReadingReports.notFound(reportId));
        }
        InfractionReport report = found.get();
        boolean operator = caller instanceof Caller.Operator;
        boolean payee = caller instanceof Caller.Bank(BankId bank) && bank.equals(report.payeeBank());
        ReportStatus to = decision == Decision.ACCEPT ? ReportStatus.ACCEPTED : ReportStatus.REJECTED;
        if (report.status().decided()) {
            if (report.status() == to
                    || (to == ReportStatus.ACCEPTED && report.status().accepted())) {
                // The same decision again, maybe after one cut short between its record and its effects: both again.
                effects(report);
                return new Analysis.Decided(report, false);
            }
            return new Analysis.Refused(Refusal.of(
                    RefusalReason.REPORT_ALREADY_DECIDED, "report " + reportId + " was " + report.status() + " first"));
        }
        if (report.status() == ReportStatus.ESCALATED ? !operator : !payee) {
            return new Analysis.Refused(Refusal.of(
                    RefusalReason.NOT_THE_ANALYSING_BANK,
                    report.status() == ReportStatus.ESCALATED
                            ? "report " + reportId + " is escalated: the operator decides it"
                            : "only the payee's bank analyses report " + reportId));
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS); // as stored
        if (report.status() == ReportStatus.OPEN && now.isAfter(report.analyseBy())) {
            return new Analysis.Refused(Refusal.of(
                    RefusalReason.ANALYSIS_DEADLINE_PASSED,
                    "report " + reportId + " was to be analysed by " + report.analyseBy()
                            + "; it is escalated to the operator"));
        }
        if (!store.decide(reportId, report.status(), to, now, why)) {
            return analyse(caller, reportId, decision, why); // another decision came first: answer as it left it
        }
        InfractionReport decided = report.with(to, now, why);
        effects(decided);
        return new Analysis.Decided(decided, true);
    }

    /** A decided report's effects, each repeatable: a rejected one's holds released; both banks told. */
    private void effects(InfractionReport decided) {
        if (decided.status() == ReportStatus.REJECTED) {
            holding.release(decided.id(), decided.trace());
        }
        notices.tell(decided);
    }

    /** Escalates the open reports past their deadline: one round, at most {@value #DUE_PER_ROUND_MAX}. */
    public int escalateDue() {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS); // as stored
        int escalated = 0;
        List<InfractionReport> due = store.due(now, DUE_PER_ROUND_MAX);
        for (InfractionReport report : due) {
            if (store.decide(report.id(), ReportStatus.OPEN, ReportStatus.ESCALATED, now, null)) {
                notices.tell(report.with(ReportStatus.ESCALATED, now, null));
                escalated++;
            }
        }
        return escalated;
    }
}
