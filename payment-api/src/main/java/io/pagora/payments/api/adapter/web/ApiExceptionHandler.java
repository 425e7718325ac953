package io.pagora.payments.api.adapter.web;

import io.pagora.ledger.port.LedgerUnavailableException;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.service.web.EdgeProblems;
import io.pagora.service.web.ProblemExceptionHandler;
import io.pagora.service.web.ProblemType;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import org.apache.kafka.common.KafkaException;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;

/**
 * Turns every failure into RFC 9457 problem+json: request problems with their specific type,
 * outages (ledger, database) as 503, framework errors (404, 405, …) with a Pagora type (service-support's
 * {@link ProblemExceptionHandler}), and anything unexpected as a 500 whose detail reveals nothing (the stack trace
 * goes to the log only).
 */
@RestControllerAdvice
public class ApiExceptionHandler extends ProblemExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    @ExceptionHandler(RefusalException.class)
    public ResponseEntity<Object> problem(RefusalException e, HttpServletRequest request) {
        return Problems.response(e.problem(), request.getRequestURI());
    }

    @ExceptionHandler(LedgerUnavailableException.class)
    public ResponseEntity<Object> ledgerUnavailable(LedgerUnavailableException e, HttpServletRequest request) {
        log.warn("ledger unavailable on {}: {}", request.getRequestURI(), e.getMessage());
        return Problems.response(
                HttpProblems.LEDGER_UNAVAILABLE,
                null,
                "the ledger did not answer in time; retry the same request (it is idempotent)",
                request.getRequestURI());
    }

    @ExceptionHandler(DataAccessException.class)
    public ResponseEntity<Object> databaseUnavailable(DataAccessException e, HttpServletRequest request) {
        log.error("database failure on {}", request.getRequestURI(), e);
        return Problems.response(
                HttpProblems.DATABASE_UNAVAILABLE,
                null,
                "the database could not serve the request; retry the same request (it is idempotent)",
                request.getRequestURI());
    }

    /**
     * The broker failed a read a stream pull needs (a timeout, a failover): nothing was handed out or acknowledged, so
     * the same pull again is safe. Transient, so 503 and not the generic 500.
     */
    @ExceptionHandler(KafkaException.class)
    public ResponseEntity<Object> brokerUnavailable(KafkaException e, HttpServletRequest request) {
        log.warn("broker unavailable on {} {}: {}", request.getMethod(), request.getRequestURI(), e.toString());
        return Problems.response(
                Refusal.retryAfter(
                        RefusalReason.BROKER_UNAVAILABLE,
                        1,
                        "the message broker did not"
                                + " answer in time; nothing was delivered or acknowledged: retry the same request after Retry-After"),
                request.getRequestURI());
    }

    /** Tomcat refuses to decode a query string (bad percent-encoding, not UTF-8) when a handler reads parameters. */
    @ExceptionHandler(InvalidParameterException.class)
    public ResponseEntity<Object> invalidParameters(InvalidParameterException e, HttpServletRequest request) {
        return Problems.response(
                EdgeProblems.BAD_REQUEST,
                null,
                "the query string is not valid percent-encoded UTF-8",
                request.getRequestURI());
    }

    @ExceptionHandler(Exception.class)
    public ResponseEntity<Object> unexpected(Exception e, HttpServletRequest request) {
        log.error("unexpected failure on {} {}", request.getMethod(), request.getRequestURI(), e);
        return Problems.response(
                EdgeProblems.INTERNAL_ERROR,
                null,
                "an unexpected error occurred and was logged; retrying with the same Idempotency-Key is safe",
                request.getRequestURI());
    }

    @Override
    protected String internalErrorDetail() {
        return "an unexpected error occurred and was logged";
    }

    /** Framework errors (no such path, wrong method, …) take payment-api's type of their status. */
    @Override
    protected ProblemType typeOf(int status) {
        return Problems.typeOf(status);
    }

    /** Problems thrown while reading a request, and framework errors, name the path they refused, like every other. */
    @Override
    protected void complete(ProblemDetail detail, WebRequest request) {
        if (detail.getInstance() == null && request.getDescription(false).startsWith("uri=")) {
            detail.setInstance(URI.create(request.getDescription(false).substring(4)));
        }
    }
}
