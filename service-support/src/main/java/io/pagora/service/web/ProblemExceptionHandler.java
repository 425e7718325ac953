package io.pagora.service.web;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * The problem+json base of every service's {@code @RestControllerAdvice}: a {@link ProblemException} answered with
 * its type, and Spring MVC's own errors (no such path, wrong method, bad Accept ...) in the same format with a
 * Pagora type (by status: {@link #typeOf(int)}), a 5xx among them logged and answered without internals. A service
 * adds handlers for its own failures (outages, unexpected exceptions) and says what a 5xx's detail reads.
 */
public abstract class ProblemExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemExceptionHandler.class);

    /** A document of {@code type}, with its status and title. */
    public static ProblemDetail problem(ProblemType type, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(type.status(), detail);
        problem.setType(type.uri());
        problem.setTitle(type.title());
        return problem;
    }

    /** The answer: the document's status, as {@code application/problem+json}. */
    public static ResponseEntity<ProblemDetail> respond(ProblemDetail problem) {
        return ResponseEntity.status(problem.getStatus())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }

    @ExceptionHandler(ProblemException.class)
    public ResponseEntity<ProblemDetail> problem(ProblemException e, WebRequest request) {
        ProblemDetail problem = problem(e.type(), e.getMessage());
        if (e.field() != null) {
            problem.setProperty("field", e.field());
        }
        complete(problem, request);
        return respond(problem);
    }

    /** What a framework error answered 5xx says instead of its message: nothing of the service's internals. */
    protected abstract String internalErrorDetail();

    /** The Pagora type of a framework error answered with {@code status}. */
    protected ProblemType typeOf(int status) {
        return EdgeProblems.typeOf(status);
    }

    /** Anything the service adds to the document of a {@link ProblemException} or a framework error (nothing by default). */
    protected void complete(ProblemDetail detail, WebRequest request) {}

    /** Spring MVC's own errors: the same format, with a Pagora type. */
    @Override
    protected @Nullable ResponseEntity<Object> handleExceptionInternal(
            Exception ex, @Nullable Object body, HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        ResponseEntity<Object> response = super.handleExceptionInternal(ex, body, headers, statusCode, request);
        if (response == null || !(response.getBody() instanceof ProblemDetail detail)) {
            return response;
        }
        ProblemType type = typeOf(statusCode.value());
        detail.setType(type.uri());
        detail.setTitle(type.title());
        if (statusCode.is5xxServerError()) {
            log.error("framework failure {}", statusCode, ex);
            detail.setDetail(internalErrorDetail());
        }
        complete(detail, request);
        HttpHeaders merged = new HttpHeaders();
        merged.putAll(response.getHeaders());
        // Set explicitly: content negotiation has nothing to go by when the Accept header was the problem.
        merged.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        return new ResponseEntity<>(detail, merged, response.getStatusCode());
    }
}
