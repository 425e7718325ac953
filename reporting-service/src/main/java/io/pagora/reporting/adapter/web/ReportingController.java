package io.pagora.reporting.adapter.web;

import io.pagora.service.web.ProblemException;
import io.pagora.kernel.Id128;
import io.pagora.reporting.application.ReadModelQueries;
import io.pagora.reporting.application.StatementCursor;
import io.pagora.reporting.domain.PaymentStatus;
import java.time.Clock;
import java.time.LocalDate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The read side's HTTP API. Parameters are taken as text and parsed here, so every bad value gets its
 * own problem type instead of a generic conversion error.
 */
@RestController
public class ReportingController {

    static final int LISTING_LIMIT_DEFAULT = 20;
    static final int LISTING_LIMIT_MAX = 100;

    private final ReadModelQueries queries;
    private final Clock clock;

    public ReportingController(ReadModelQueries queries, Clock clock) {
        this.queries = queries;
        this.clock = clock;
    }

    @GetMapping("/payments/{paymentId}")
    Responses.Payment payment(@PathVariable("paymentId") String paymentId) {
        Id128 id = QueryParameters.paymentId(paymentId);
        return queries.payment(id).map(Responses.Payment::of).orElseThrow(() -> new ProblemException(
                ReportingProblem.UNKNOWN_PAYMENT,
                "No payment " + id + " has been projected. It may not exist, or its events may still be on their way."));
    }

    @GetMapping("/accounts/{accountId}/statement")
    Responses.Statement statement(@PathVariable("accountId") String accountId, @RequestParam(name = "limit", required = false) String limit,
            @RequestParam(name = "after", required = false) String after) {
        Id128 account = QueryParameters.accountId(accountId);
        int pageSize = QueryParameters.limit(limit, StatementCursor.LIMIT_DEFAULT, StatementCursor.LIMIT_MAX);
        StatementCursor cursor = QueryParameters.cursor(after);
        ReadModelQueries.StatementPage page = queries.statement(account, cursor, pageSize);
        return new Responses.Statement(account.toString(), "NEWEST_FIRST", pageSize,
                page.entries().stream().map(Responses.Movement::of).toList(),
                page.next() == null ? null : page.next().encode());
    }

    @GetMapping("/banks/{ispb}/positions")
    Responses.Position positions(@PathVariable("ispb") String ispb, @RequestParam(name = "date", required = false) String date) {
        int bank = QueryParameters.ispb(ispb);
        LocalDate day = QueryParameters.utcDate(date, LocalDate.now(clock.withZone(java.time.ZoneOffset.UTC)));
        return Responses.Position.of(queries.position(bank, day));
    }

    @GetMapping("/payments")
    Responses.PaymentList payments(@RequestParam(name = "status", required = false) String status,
            @RequestParam(name = "limit", required = false) String limit) {
        PaymentStatus filter = QueryParameters.status(status);
        int size = QueryParameters.limit(limit, LISTING_LIMIT_DEFAULT, LISTING_LIMIT_MAX);
        return new Responses.PaymentList(size,
                queries.recentPayments(filter, size).stream().map(Responses.PaymentListItem::of).toList());
    }

    @GetMapping("/stats")
    Responses.Stats stats() {
        return Responses.Stats.of(queries.stats());
    }
}
