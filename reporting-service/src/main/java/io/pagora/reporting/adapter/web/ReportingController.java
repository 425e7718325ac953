package io.pagora.reporting.adapter.web;

import io.pagora.kernel.Id128;
import io.pagora.reporting.application.ReadModelQueries;
import io.pagora.reporting.application.Reports;
import io.pagora.reporting.application.StatementCursor;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.service.web.EdgeProblems;
import io.pagora.service.web.ProblemException;
import io.pagora.settlement.domain.access.Caller;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The read side's HTTP API. Parameters are taken as text and parsed here, so every bad value gets its
 * own problem type instead of a generic conversion error (bad input is answered before access is decided:
 * it depends on the input alone). Who may read what is {@link Reports}' decision, for the {@link Caller}
 * the security layer authenticated: a refused object reaches this class as a missing one.
 */
@RestController
public class ReportingController {

    static final int LISTING_LIMIT_DEFAULT = 20;
    static final int LISTING_LIMIT_MAX = 100;

    private final Reports reports;
    private final Clock clock;

    public ReportingController(Reports reports, Clock clock) {
        this.reports = reports;
        this.clock = clock;
    }

    @GetMapping("/payments/{paymentId}")
    Responses.Payment payment(Caller caller, @PathVariable("paymentId") String paymentId) {
        Id128 id = QueryParameters.paymentId(paymentId);
        return reports.payment(caller, id)
                .map(Responses.Payment::of)
                .orElseThrow(() -> new ProblemException(
                        ReportingProblem.UNKNOWN_PAYMENT,
                        "No payment " + id
                                + " has been projected. It may not exist, or its events may still be on their way."));
    }

    /** A payment by its PIX end-to-end id, answered as {@code GET /payments/{paymentId}} answers it. */
    @GetMapping("/payments/end-to-end/{endToEndId}")
    Responses.Payment paymentByEndToEndId(Caller caller, @PathVariable("endToEndId") String endToEndId) {
        String id = QueryParameters.endToEndId(endToEndId);
        // Another bank's payment is answered with this very problem: only the id asked shows in it.
        return reports.paymentByEndToEndId(caller, id)
                .map(Responses.Payment::of)
                .orElseThrow(() -> new ProblemException(
                        ReportingProblem.UNKNOWN_PAYMENT,
                        "No payment with end-to-end id " + id
                                + " has been projected. It may not exist, or its events may still be on their way."));
    }

    @GetMapping("/accounts/{accountId}/statement")
    Responses.Statement statement(
            Caller caller,
            @PathVariable("accountId") String accountId,
            @RequestParam(name = "limit", required = false) String limit,
            @RequestParam(name = "after", required = false) String after) {
        Id128 account = QueryParameters.accountId(accountId);
        int pageSize = QueryParameters.limit(limit, StatementCursor.LIMIT_DEFAULT, StatementCursor.LIMIT_MAX);
        StatementCursor cursor = QueryParameters.cursor(after);
        ReadModelQueries.StatementPage page = reports.statement(caller, account, cursor, pageSize)
                .orElseThrow(() -> new ProblemException(
                        ReportingProblem.UNKNOWN_ACCOUNT,
                        "No account " + account + " is known to you: an account's statement is its own bank's."));
        return new Responses.Statement(
                account.toString(),
                "NEWEST_FIRST",
                pageSize,
                page.entries().stream().map(Responses.Movement::of).toList(),
                page.next() == null ? null : page.next().encode());
    }

    @GetMapping("/banks/{ispb}/positions")
    Responses.Position positions(
            Caller caller,
            @PathVariable("ispb") String ispb,
            @RequestParam(name = "date", required = false) String date) {
        int bank = QueryParameters.ispb(ispb);
        LocalDate day = QueryParameters.utcDate(date, LocalDate.now(clock.withZone(ZoneOffset.UTC)));
        return Responses.Position.of(reports.position(caller, bank, day)
                .orElseThrow(() -> new ProblemException(
                        ReportingProblem.UNKNOWN_BANK,
                        "No bank " + String.format("%08d", bank) + " is known to you: a bank's positions are its own"
                                + " and the operator's.")));
    }

    @GetMapping("/payments")
    Responses.PaymentList payments(
            Caller caller,
            @RequestParam(name = "status", required = false) String status,
            @RequestParam(name = "limit", required = false) String limit) {
        PaymentStatus filter = QueryParameters.status(status);
        int size = QueryParameters.limit(limit, LISTING_LIMIT_DEFAULT, LISTING_LIMIT_MAX);
        return new Responses.PaymentList(
                size,
                granted(
                                reports.recentPayments(caller, filter, size),
                                "only a participant bank lists payments, each its own: the operator is party to none")
                        .stream()
                        .map(Responses.PaymentListItem::of)
                        .toList());
    }

    @GetMapping("/stats")
    Responses.Stats stats(Caller caller) {
        return Responses.Stats.of(granted(reports.stats(caller), "only the switch operator may read the statistics"));
    }

    /** A function the caller may not use is a 403 problem: that depends on who calls, not on any object. */
    private static <T> T granted(Reports.Answer<T> answer, String forbiddenDetail) {
        return switch (answer) {
            case Reports.Answer.Granted<T> granted -> granted.value();
            case Reports.Answer.Forbidden<T> forbidden ->
                throw new ProblemException(EdgeProblems.FORBIDDEN, forbiddenDetail);
        };
    }
}
