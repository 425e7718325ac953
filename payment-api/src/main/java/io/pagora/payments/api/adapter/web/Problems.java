package io.pagora.payments.api.adapter.web;

import io.pagora.payments.api.domain.Problem;
import io.pagora.payments.api.domain.ProblemType;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import io.pagora.service.web.ProblemExceptionHandler;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * Renders {@link Problem}s as RFC 9457 {@code application/problem+json} responses, on service-support's problem+json
 * base: the domain names why a request is refused, this adapter gives each reason its HTTP status.
 */
final class Problems {

    /** Seconds a client should wait before retrying a request refused for a transient outage. */
    static final String RETRY_AFTER_SECONDS = "1";

    private Problems() {}

    static HttpStatus statusOf(ProblemType type) {
        return switch (type) {
            case MALFORMED_JSON, MISSING_FIELD, INVALID_FIELD, INVALID_ACCOUNT_ID, MISSING_IDEMPOTENCY_KEY,
                    INVALID_IDEMPOTENCY_KEY, BAD_REQUEST -> HttpStatus.BAD_REQUEST;
            case PAYLOAD_TOO_LARGE -> HttpStatus.CONTENT_TOO_LARGE;
            case UNSUPPORTED_MEDIA_TYPE -> HttpStatus.UNSUPPORTED_MEDIA_TYPE;
            case INVALID_AMOUNT, AMOUNT_ABOVE_LIMIT, UNSUPPORTED_CURRENCY, SAME_PAYER_AND_PAYEE, NOT_A_CUSTOMER_ACCOUNT,
                    UNKNOWN_ACCOUNT, IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_KEY_FAILED, INVALID_BATCH_SIZE, UNKNOWN_BANK,
                    LEDGER_REFUSED -> HttpStatus.UNPROCESSABLE_CONTENT;
            case BANK_NAME_CONFLICT, LEDGER_CONFLICT -> HttpStatus.CONFLICT;
            case ACCOUNT_NOT_FOUND, NOT_FOUND -> HttpStatus.NOT_FOUND;
            case METHOD_NOT_ALLOWED -> HttpStatus.METHOD_NOT_ALLOWED;
            case NOT_ACCEPTABLE -> HttpStatus.NOT_ACCEPTABLE;
            case BROKER_UNAVAILABLE, OUTCOME_UNKNOWN, LEDGER_UNAVAILABLE, DATABASE_UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
            case OVERLOADED -> HttpStatus.TOO_MANY_REQUESTS;
            case INTERNAL_ERROR -> HttpStatus.INTERNAL_SERVER_ERROR;
        };
    }

    /** A domain {@link ProblemType} as service-support's problem+json base sees it: with its HTTP status. */
    static io.pagora.service.web.ProblemType http(ProblemType type) {
        return new io.pagora.service.web.ProblemType(type.slug, type.title, statusOf(type));
    }

    /** The problem type a framework-level error status maps to. */
    static ProblemType typeOf(int status) {
        return switch (status) {
            case 400 -> ProblemType.BAD_REQUEST;
            case 404 -> ProblemType.NOT_FOUND;
            case 405 -> ProblemType.METHOD_NOT_ALLOWED;
            case 406 -> ProblemType.NOT_ACCEPTABLE;
            case 413 -> ProblemType.PAYLOAD_TOO_LARGE;
            case 415 -> ProblemType.UNSUPPORTED_MEDIA_TYPE;
            case 503 -> ProblemType.DATABASE_UNAVAILABLE;
            default -> ProblemType.INTERNAL_ERROR;
        };
    }

    static ProblemDetail detail(Problem problem, String path) {
        ProblemDetail detail = ProblemExceptionHandler.problem(http(problem.type()), problem.detail());
        if (path != null) {
            detail.setInstance(URI.create(path));
        }
        if (problem.field() != null) {
            detail.setProperty("field", problem.field());
        }
        return detail;
    }

    static ResponseEntity<Object> response(Problem problem, String path) {
        ProblemDetail detail = detail(problem, path);
        ResponseEntity.BodyBuilder builder = ResponseEntity.status(detail.getStatus())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (detail.getStatus() == HttpStatus.SERVICE_UNAVAILABLE.value()
                || detail.getStatus() == HttpStatus.TOO_MANY_REQUESTS.value()) {
            builder.header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
        }
        return builder.body(detail);
    }

    /** A problem embedded in a batch result: the same members as a problem+json document. */
    static Map<String, Object> embedded(Problem problem) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", problem.type().uri().toString());
        body.put("title", problem.type().title);
        body.put("status", statusOf(problem.type()).value());
        body.put("detail", problem.detail());
        if (problem.field() != null) {
            body.put("field", problem.field());
        }
        return body;
    }
}
