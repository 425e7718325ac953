package io.pagora.payments.api.application.med;

import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.med.InfractionReport;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.access.Caller;
import java.util.Optional;

/**
 * A report's life cycle, for its two banks and the operator; for anyone else it does not exist, and neither does a
 * report still FILING (its bank's retry finishes it).
 */
public final class ReadingReports {

    private final ReportStore store;

    public ReadingReports(ReportStore store) {
        this.store = store;
    }

    public Optional<InfractionReport> get(Caller caller, PaymentId reportId) {
        return store.find(reportId).filter(report -> report.status().filed()).filter(report -> visible(caller, report));
    }

    static boolean visible(Caller caller, InfractionReport report) {
        return switch (caller) {
            case Caller.Operator operator -> true;
            case Caller.Bank(BankId bank) -> bank.equals(report.payerBank()) || bank.equals(report.payeeBank());
        };
    }

    public static Refusal notFound(PaymentId reportId) {
        return Refusal.of(RefusalReason.REPORT_NOT_FOUND, "no infraction report " + reportId + " of this bank's");
    }
}
