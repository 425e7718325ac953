package io.pagora.reporting.adapter.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.pagora.reporting.application.ReadModelQueries;
import io.pagora.reporting.application.ReadModelQueries.PaymentSummary;
import io.pagora.reporting.application.ReadModelQueries.PaymentView;
import io.pagora.reporting.application.ReadModelQueries.StatementEntry;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.settlement.domain.BankId;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON bodies of the API (see openapi.yaml). Ids are 32 lowercase hex digits, ISPBs 8 digits. */
final class Responses {

    private Responses() {}

    /**
     * A payment; a return (devolução) names what it returns ({@code returnOf}), a payment lists its returns and, once
     * settled, how much of it is left to return ({@code returnableCentavos}: its amount less the returns settled and
     * in flight, as projected — the ledger holds the line).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Payment(
            String paymentId,
            String status,
            String payerAccountId,
            String payeeAccountId,
            String payerBankIspb,
            String payeeBankIspb,
            long amountCentavos,
            String currency,
            String description,
            String endToEndId,
            String reason,
            String detail,
            Instant acceptedAt,
            Instant finalAt,
            List<TimelineEvent> timeline,
            ReturnOf returnOf,
            Long returnedCentavos,
            Long returnableCentavos,
            Long returnsCount,
            List<Return> returns) {

        static Payment of(PaymentView view) {
            List<TimelineEvent> timeline = new ArrayList<>(2);
            // Every event carries acceptedAt, so the request's time is known even before its event is projected.
            timeline.add(new TimelineEvent("REQUESTED", view.acceptedAt(), null));
            if (view.status().isFinal()) {
                timeline.add(new TimelineEvent(view.status().name(), view.finalAt(), view.reason()));
            }
            ReadModelQueries.Returns returns = view.returns();
            boolean returnable = returns != null && view.status() == PaymentStatus.SETTLED;
            return new Payment(
                    view.paymentId().toString(),
                    view.status().name(),
                    view.payerAccountId().toString(),
                    view.payeeAccountId().toString(),
                    ispb(view.payerBankIspb()),
                    ispb(view.payeeBankIspb()),
                    view.amountCentavos(),
                    view.currency(),
                    view.description(),
                    view.endToEndId(),
                    view.reason(),
                    view.detail(),
                    view.acceptedAt(),
                    view.finalAt(),
                    List.copyOf(timeline),
                    view.returnOf() == null
                            ? null
                            : new ReturnOf(view.returnOf().toString(), view.returnReason()),
                    returnable ? returns.settledCentavos() : null,
                    returnable
                            ? Math.max(
                                    0, view.amountCentavos() - returns.settledCentavos() - returns.inFlightCentavos())
                            : null,
                    returns == null ? null : returns.count(),
                    returns == null
                            ? null
                            : returns.listed().stream().map(Return::of).toList());
        }
    }

    /** What a return returns: the original payment, and why (a PIX return reason code). */
    record ReturnOf(String paymentId, String reason) {}

    /** One return of a payment; {@code returnId} its PIX return id (D…), absent until its request is projected. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Return(
            String paymentId,
            String returnId,
            long amountCentavos,
            String reason,
            String status,
            Instant acceptedAt,
            Instant finalAt) {

        static Return of(ReadModelQueries.ReturnSummary summary) {
            return new Return(
                    summary.paymentId().toString(),
                    summary.returnId(),
                    summary.amountCentavos(),
                    summary.reason(),
                    summary.status().name(),
                    summary.acceptedAt(),
                    summary.finalAt());
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record TimelineEvent(String event, Instant at, String reason) {}

    /** {@code next} is always present: null on the last page. */
    record Statement(String accountId, String order, int limit, List<Movement> entries, String next) {}

    /** A statement line; a return's line names the payment it returns ({@code returnOf}). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Movement(
            String paymentId,
            String direction,
            long amountCentavos,
            long signedAmountCentavos,
            String counterpartyAccountId,
            Instant settledAt,
            ReturnOf returnOf) {

        static Movement of(StatementEntry entry) {
            long signed = entry.direction() == ReadModelQueries.Direction.DEBIT
                    ? -entry.amountCentavos()
                    : entry.amountCentavos();
            return new Movement(
                    entry.paymentId().toString(),
                    entry.direction().name(),
                    entry.amountCentavos(),
                    signed,
                    entry.counterpartyAccountId().toString(),
                    entry.settledAt(),
                    entry.returnOf() == null
                            ? null
                            : new ReturnOf(entry.returnOf().toString(), entry.returnReason()));
        }
    }

    record Position(
            String ispb,
            LocalDate date,
            long sentCentavos,
            long sentCount,
            long receivedCentavos,
            long receivedCount,
            long netCentavos,
            long onUsCentavos,
            long onUsCount) {

        static Position of(ReadModelQueries.BankPosition position) {
            return new Position(
                    Responses.ispb(position.ispb()),
                    position.date(),
                    position.sentCentavos(),
                    position.sentCount(),
                    position.receivedCentavos(),
                    position.receivedCount(),
                    position.netCentavos(),
                    position.onUsCentavos(),
                    position.onUsCount());
        }
    }

    record PaymentList(int limit, List<PaymentListItem> payments) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record PaymentListItem(
            String paymentId,
            String status,
            String payerAccountId,
            String payeeAccountId,
            long amountCentavos,
            Instant acceptedAt,
            Instant finalAt) {

        static PaymentListItem of(PaymentSummary summary) {
            return new PaymentListItem(
                    summary.paymentId().toString(),
                    summary.status().name(),
                    summary.payerAccountId().toString(),
                    summary.payeeAccountId().toString(),
                    summary.amountCentavos(),
                    summary.acceptedAt(),
                    summary.finalAt());
        }
    }

    /** {@code maxFinalAt} and {@code lastProjectedAt} are null before the first projected outcome / poll. */
    record Stats(Map<String, Long> counts, long total, Instant maxFinalAt, Instant lastProjectedAt) {

        static Stats of(ReadModelQueries.Stats stats) {
            Map<String, Long> counts = new LinkedHashMap<>();
            for (PaymentStatus status : PaymentStatus.values()) {
                counts.put(status.name(), stats.counts().getOrDefault(status, 0L));
            }
            return new Stats(counts, stats.total(), stats.maxFinalAt(), stats.lastProjectedAt());
        }
    }

    static String ispb(Integer ispb) {
        return ispb == null ? null : new BankId(ispb).toString();
    }
}
