package io.pagora.payments.api.adapter.web;

import io.pagora.payments.api.application.med.AnalysingReports;
import io.pagora.payments.api.application.med.FilingReports;
import io.pagora.payments.api.application.med.ReadingReports;
import io.pagora.payments.api.application.med.RefundingReports;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.med.InfractionReason;
import io.pagora.payments.api.domain.med.InfractionReport;
import io.pagora.payments.api.domain.med.ReportRefund;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.access.Caller;
import io.pagora.settlement.domain.med.HoldIds;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** Infraction reports (MED, docs/med.md): filed by the payer's bank, analysed by the payee's, read by both. */
@RestController
public class ReportController {

    /** A report as answered: its life cycle and its trace. */
    public record ReportResponse(
            String reportId,
            String paymentId,
            int payerIspb,
            int payeeIspb,
            long amountCentavos,
            String reason,
            String details,
            String status,
            Instant filedAt,
            Instant analyseBy,
            Instant holdUntil,
            Instant decidedAt,
            String decisionReason,
            long heldCentavos,
            boolean truncated,
            List<TracedAccount> trace,
            Long refundCentavos,
            Instant refundRequestedAt) {}

    /** One account of the trace: where some of the money was found, and what is held there. */
    public record TracedAccount(
            int position,
            int hop,
            String accountId,
            int ispb,
            long tracedCentavos,
            long heldCentavos,
            int parent,
            String viaPaymentId,
            String refundPaymentId,
            Long refundCentavos,
            String refundOutcome) {}

    private final FilingReports filing;
    private final AnalysingReports analysing;
    private final ReadingReports reading;
    private final RefundingReports refunding;
    private final int bodyMaxBytes;

    public ReportController(
            FilingReports filing,
            AnalysingReports analysing,
            ReadingReports reading,
            RefundingReports refunding,
            int bodyMaxBytes) {
        this.filing = filing;
        this.analysing = analysing;
        this.refunding = refunding;
        this.reading = reading;
        this.bodyMaxBytes = bodyMaxBytes;
    }

    @PostMapping("/infraction-reports")
    public ResponseEntity<Object> file(Caller caller, HttpServletRequest http) {
        JsonFields fields = new JsonFields(JsonBodies.read(http, bodyMaxBytes));
        IdempotencyKey.Result key = IdempotencyKey.parse(
                http.getHeader(PaymentController.IDEMPOTENCY_KEY), PaymentController.IDEMPOTENCY_KEY);
        if (key.problem() != null) {
            throw new RefusalException(key.problem());
        }
        PaymentId payment = ReturnJson.paymentId(fields.requiredString("paymentId"), "paymentId", "paymentId");
        InfractionReason reason = oneOf(fields, "reason", InfractionReason.class);
        String details = text(fields, "details");
        return switch (filing.file(caller, key.key(), payment, reason, details)) {
            case FilingReports.Filing.Filed filed ->
                ResponseEntity.status(filed.created() ? HttpStatus.CREATED : HttpStatus.OK)
                        .header(PaymentController.IDEMPOTENT_REPLAYED, Boolean.toString(!filed.created()))
                        .body(response(filed.report()));
            case FilingReports.Filing.Refused refused -> Problems.response(refused.problem(), http.getRequestURI());
        };
    }

    @GetMapping("/infraction-reports/{reportId}")
    public ResponseEntity<Object> get(
            @PathVariable("reportId") String reportId, Caller caller, HttpServletRequest http) {
        PaymentId id = ReturnJson.paymentId(reportId, "reportId", "the path's report id");
        return reading.get(caller, id)
                .<ResponseEntity<Object>>map(report -> ResponseEntity.ok(response(report)))
                .orElseGet(() -> Problems.response(ReadingReports.notFound(id), http.getRequestURI()));
    }

    @PostMapping("/infraction-reports/{reportId}/analysis")
    public ResponseEntity<Object> analyse(
            @PathVariable("reportId") String reportId, Caller caller, HttpServletRequest http) {
        PaymentId id = ReturnJson.paymentId(reportId, "reportId", "the path's report id");
        JsonFields fields = new JsonFields(JsonBodies.read(http, bodyMaxBytes));
        AnalysingReports.Decision decision = oneOf(fields, "decision", AnalysingReports.Decision.class);
        String why = text(fields, "reason");
        if (decision == AnalysingReports.Decision.REJECT && why == null) {
            throw fields.missing("reason");
        }
        return switch (analysing.analyse(caller, id, decision, why)) {
            case AnalysingReports.Analysis.Decided decided -> ResponseEntity.ok(response(decided.report()));
            case AnalysingReports.Analysis.Refused refused ->
                Problems.response(refused.problem(), http.getRequestURI());
        };
    }

    @PostMapping("/infraction-reports/{reportId}/refund")
    public ResponseEntity<Object> refund(
            @PathVariable("reportId") String reportId, Caller caller, HttpServletRequest http) {
        PaymentId id = ReturnJson.paymentId(reportId, "reportId", "the path's report id");
        JsonFields fields = new JsonFields(JsonBodies.read(http, bodyMaxBytes));
        Long centavos = fields.optionalLong("amountCentavos", 1, Long.MAX_VALUE);
        return switch (refunding.refund(
                caller, id, centavos == null ? OptionalLong.empty() : OptionalLong.of(centavos))) {
            case RefundingReports.Refunding.Refunded refunded -> ResponseEntity.ok(response(refunded.report()));
            case RefundingReports.Refunding.Refused refused ->
                Problems.response(refused.problem(), http.getRequestURI());
        };
    }

    private static <E extends Enum<E>> E oneOf(JsonFields fields, String name, Class<E> values) {
        String text = fields.requiredString(name);
        for (E value : values.getEnumConstants()) {
            if (value.name().equals(text)) {
                return value;
            }
        }
        throw fields.invalid(
                RefusalReason.INVALID_FIELD,
                name,
                "must be one of " + Arrays.toString(values.getEnumConstants()) + ", got \""
                        + JsonFields.abbreviate(text) + "\"");
    }

    /** Optional free text: 1 to 1,000 characters, no control characters; null when absent. */
    private static String text(JsonFields fields, String name) {
        String text = fields.optionalString(name);
        if (text != null && (text.isBlank() || !JsonFields.isPlainText(text, InfractionReport.TEXT_CHARS_MAX))) {
            throw fields.invalid(
                    RefusalReason.INVALID_FIELD,
                    name,
                    "must be 1 to " + InfractionReport.TEXT_CHARS_MAX
                            + " characters, not blank, without control characters");
        }
        return text;
    }

    static ReportResponse response(InfractionReport report) {
        ReportRefund refund = report.refund();
        Map<Integer, Long> shares = refund == null ? Map.of() : ReportRefund.shares(report.trace(), refund.centavos());
        return new ReportResponse(
                report.id().toString(),
                report.payment().toString(),
                report.payerBank().ispb(),
                report.payeeBank().ispb(),
                report.amountCentavos(),
                report.reason().name(),
                report.details(),
                report.status().name(),
                report.filedAt(),
                report.analyseBy(),
                report.holdUntil(),
                report.decidedAt(),
                report.decisionReason(),
                report.heldCentavos(),
                report.trace().truncated(),
                report.trace().nodes().stream()
                        .map(node -> new TracedAccount(
                                node.position(),
                                node.hop(),
                                node.account().toString(),
                                ChartOfAccounts.bankOf(node.account())
                                        .map(bank -> bank.ispb())
                                        .orElse(-1),
                                node.tracedCentavos(),
                                node.heldCentavos(),
                                node.parent(),
                                node.via().toString(),
                                shares.containsKey(node.position())
                                        ? HoldIds.refund(report.id(), node.position())
                                                .toString()
                                        : null,
                                shares.get(node.position()),
                                refund == null || !refund.outcomes().containsKey(node.position())
                                        ? null
                                        : refund.outcomes().get(node.position()).name()))
                        .toList(),
                refund == null ? null : refund.centavos(),
                refund == null ? null : refund.requestedAt());
    }
}
