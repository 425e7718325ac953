package io.pagora.reporting.adapter.web;

import io.pagora.service.web.EdgeProblems;
import io.pagora.service.web.ProblemExceptionHandler;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Every error as RFC 9457 problem+json with a specific type: bad input and unknown payments
 * ({@link ReportingProblem}s) and Spring MVC's own errors through service-support's {@link ProblemExceptionHandler},
 * an undecodable query string as 400, a database outage as 503, anything else as a 500 without internals (the
 * stack trace goes to the log, not to the client).
 */
@RestControllerAdvice
public class ProblemHandler extends ProblemExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);
    private static final String INTERNAL_ERROR_DETAIL = "The service failed to answer; the error was logged.";

    @ExceptionHandler(DataAccessException.class)
    ResponseEntity<ProblemDetail> readModelUnavailable(DataAccessException e) {
        log.warn("read model query failed: {}", e.getMessage());
        return respond(problem(
                ReportingProblem.READ_MODEL_UNAVAILABLE, "The read model cannot be queried right now; retry later."));
    }

    /** Tomcat refuses to decode a query string (bad percent-encoding, not UTF-8) when a parameter is read. */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<ProblemDetail> undecodableQuery(InvalidParameterException e) {
        return respond(problem(EdgeProblems.BAD_REQUEST, "The query string is not valid percent-encoded UTF-8."));
    }

    @ExceptionHandler(RuntimeException.class)
    ResponseEntity<ProblemDetail> unexpected(RuntimeException e) {
        log.error("unexpected error answering a query", e);
        return respond(problem(EdgeProblems.INTERNAL_ERROR, INTERNAL_ERROR_DETAIL));
    }

    @Override
    protected String internalErrorDetail() {
        return INTERNAL_ERROR_DETAIL;
    }
}
