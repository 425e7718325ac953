package io.pagora.payments.api.application.med;

import io.pagora.payments.api.domain.med.InfractionReport;
import io.pagora.payments.api.domain.med.ReportRefund;
import io.pagora.payments.api.domain.med.ReportStatus;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.med.RefundOutcome;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link ReportStore} in memory, with the JDBC store's compare-and-sets. */
final class InMemoryReportStore implements ReportStore {

    private final Map<PaymentId, InfractionReport> reports = new LinkedHashMap<>();

    /** Puts {@code report} as it stands, as a filing and an analysis would have left it. */
    synchronized void put(InfractionReport report) {
        reports.put(report.id(), report);
    }

    @Override
    public synchronized Opened open(InfractionReport draft) {
        for (InfractionReport stored : reports.values()) {
            if (stored.payerBank().equals(draft.payerBank())
                    && stored.requestKey().equals(draft.requestKey())
                    && !stored.payment().equals(draft.payment())) {
                return new Opened.KeyTaken();
            }
        }
        InfractionReport stored = reports.putIfAbsent(draft.id(), draft);
        return new Opened.Stored(stored == null ? draft : stored, stored == null);
    }

    @Override
    public synchronized boolean planned(InfractionReport report) {
        if (reports.get(report.id()).status() != ReportStatus.FILING) {
            return false;
        }
        reports.put(report.id(), report);
        return true;
    }

    @Override
    public synchronized boolean opened(InfractionReport report) {
        if (reports.get(report.id()).status() != ReportStatus.HOLDING) {
            return false;
        }
        reports.put(report.id(), report);
        return true;
    }

    @Override
    public synchronized List<InfractionReport> unfinished(Instant before, int limit) {
        return reports.values().stream()
                .filter(report -> report.status() == ReportStatus.FILING || report.status() == ReportStatus.HOLDING)
                .filter(report -> report.filedAt().isBefore(before))
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized Optional<InfractionReport> find(PaymentId report) {
        return Optional.ofNullable(reports.get(report));
    }

    @Override
    public synchronized boolean decide(PaymentId report, ReportStatus from, ReportStatus to, Instant at, String why) {
        InfractionReport stored = reports.get(report);
        if (stored == null || stored.status() != from) {
            return false;
        }
        reports.put(report, stored.with(to, at, why));
        return true;
    }

    @Override
    public synchronized boolean refunding(PaymentId report, ReportRefund refund) {
        InfractionReport stored = reports.get(report);
        if (stored == null || stored.status() != ReportStatus.ACCEPTED) {
            return false;
        }
        reports.put(report, stored.refunding(ReportStatus.REFUNDING, refund));
        return true;
    }

    @Override
    public synchronized boolean refunded(PaymentId report, Map<Integer, RefundOutcome> outcomes) {
        InfractionReport stored = reports.get(report);
        if (stored.status() != ReportStatus.REFUNDING) {
            return false;
        }
        ReportRefund asked = stored.refund();
        reports.put(
                report,
                stored.refunding(
                        ReportStatus.REFUNDED, new ReportRefund(asked.centavos(), asked.requestedAt(), outcomes)));
        return true;
    }

    @Override
    public synchronized List<InfractionReport> unrefunded(Instant before, int limit) {
        return reports.values().stream()
                .filter(report -> report.status() == ReportStatus.REFUNDING)
                .filter(report -> report.refund().requestedAt().isBefore(before))
                .sorted(Comparator.comparing(report -> report.refund().requestedAt()))
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized List<InfractionReport> due(Instant now, int limit) {
        return reports.values().stream()
                .filter(report -> report.status() == ReportStatus.OPEN
                        && report.analyseBy().isBefore(now))
                .limit(limit)
                .toList();
    }
}
