package io.pagora.reporting.adapter.web;

import io.pagora.service.web.EdgeProblems;
import java.net.URI;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error as RFC 9457 problem+json with a specific type: bad input and unknown payments from
 * {@link ProblemException}, Spring MVC's own errors (unknown path, wrong method...) through
 * {@link ResponseEntityExceptionHandler} (typed by their status: not-found, method-not-allowed,
 * not-acceptable ...), an undecodable query string as 400, a database outage as 503, anything else as a 500 without
 * internals (the stack trace goes to the log, not to the client).
 */
@RestControllerAdvice
public class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    @ExceptionHandler(ProblemException.class)
    ResponseEntity<ProblemDetail> problem(ProblemException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(e.status(), e.getMessage());
        problem.setType(e.type());
        problem.setTitle(e.title());
        return respond(problem);
    }

    @ExceptionHandler(DataAccessException.class)
    ResponseEntity<ProblemDetail> readModelUnavailable(DataAccessException e) {
        log.warn("read model query failed: {}", e.getMessage());
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
                "The read model cannot be queried right now; retry later.");
        problem.setType(URI.create(ProblemException.TYPE_BASE + "read-model-unavailable"));
        problem.setTitle("Read model unavailable");
        return respond(problem);
    }

    /** Tomcat refuses to decode a query string (bad percent-encoding, not UTF-8) when a parameter is read. */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<ProblemDetail> undecodableQuery(InvalidParameterException e) {
        return respond(EdgeProblems.retyped(ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
                "The query string is not valid percent-encoded UTF-8.")));
    }

    @ExceptionHandler(RuntimeException.class)
    ResponseEntity<ProblemDetail> unexpected(RuntimeException e) {
        log.error("unexpected error answering a query", e);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
                "The service failed to answer; the error was logged.");
        problem.setType(URI.create(ProblemException.TYPE_BASE + "internal-error"));
        problem.setTitle("Internal error");
        return respond(problem);
    }

    /** Spring MVC's own errors (no such path, wrong method, bad Accept ...): the same format, with a Pagora type. */
    @Override
    protected @Nullable ResponseEntity<Object> handleExceptionInternal(Exception ex, @Nullable Object body,
            HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        ResponseEntity<Object> response = super.handleExceptionInternal(ex, body, headers, statusCode, request);
        if (response == null || !(response.getBody() instanceof ProblemDetail detail)) {
            return response;
        }
        if (statusCode.is5xxServerError()) {
            log.error("framework failure {}", statusCode, ex);
            detail.setDetail("The service failed to answer; the error was logged.");
        }
        EdgeProblems.retyped(detail);
        HttpHeaders merged = new HttpHeaders();
        merged.putAll(response.getHeaders());
        // Set explicitly: content negotiation has nothing to go by when the Accept header was the problem.
        merged.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        return new ResponseEntity<>(detail, merged, response.getStatusCode());
    }

    private static ResponseEntity<ProblemDetail> respond(ProblemDetail problem) {
        return ResponseEntity.status(problem.getStatus()).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
    }
}
