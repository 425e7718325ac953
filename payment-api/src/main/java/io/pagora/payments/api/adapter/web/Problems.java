package io.pagora.payments.api.adapter.web;

import io.pagora.kernel.Check;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.service.web.EdgeProblems;
import io.pagora.service.web.ProblemExceptionHandler;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * Renders {@link Refusal}s as RFC 9457 {@code application/problem+json} responses, on service-support's problem+json
 * base: the domain names why a request is refused, this adapter gives each reason its HTTP status.
 */
final class Problems {

    /** Seconds a client should wait before retrying a request refused for a transient outage of unknown length. */
    static final String RETRY_AFTER_SECONDS = "1";

    private Problems() {}

    static HttpStatus statusOf(RefusalReason type) {
        return switch (type) {
            case MISSING_FIELD,
                    INVALID_FIELD,
                    INVALID_ACCOUNT_ID,
                    MISSING_IDEMPOTENCY_KEY,
                    INVALID_IDEMPOTENCY_KEY,
                    INVALID_END_TO_END_ID,
                    INVALID_RETURN_ID,
                    INVALID_RETURN_REASON -> HttpStatus.BAD_REQUEST;
            case INVALID_AMOUNT,
                    AMOUNT_ABOVE_LIMIT,
                    UNSUPPORTED_CURRENCY,
                    SAME_PAYER_AND_PAYEE,
                    NOT_A_CUSTOMER_ACCOUNT,
                    UNKNOWN_ACCOUNT,
                    IDEMPOTENCY_KEY_REUSED,
                    IDEMPOTENCY_KEY_FAILED,
                    UNKNOWN_BANK,
                    LEDGER_REFUSED -> HttpStatus.UNPROCESSABLE_CONTENT;
            case BANK_NAME_CONFLICT,
                    LEDGER_CONFLICT,
                    CONFLICTING_ANSWER,
                    END_TO_END_ID_REUSED,
                    RETURN_ID_REUSED,
                    PAYMENT_NOT_SETTLED -> HttpStatus.CONFLICT;
            case RETURN_OF_A_RETURN, RETURN_WINDOW_CLOSED, RETURN_EXCEEDS_RETURNABLE ->
                HttpStatus.UNPROCESSABLE_CONTENT;
            case ACCOUNT_NOT_FOUND, BANK_NOT_FOUND, UNKNOWN_STREAM, UNKNOWN_PAYMENT -> HttpStatus.NOT_FOUND;
            case BROKER_UNAVAILABLE, OUTCOME_UNKNOWN, VERDICT_PENDING, PAYMENT_UNRESOLVED ->
                HttpStatus.SERVICE_UNAVAILABLE;
            case OVERLOADED,
                    UNKNOWN_ACCOUNT_LIMIT,
                    PARTICIPANT_RATE_LIMITED,
                    PARTICIPANT_CONCURRENCY_LIMITED,
                    TOO_MANY_STREAMS -> HttpStatus.TOO_MANY_REQUESTS;
            case NOT_YOUR_STREAM, NOT_THE_PAYEES_BANK -> HttpStatus.FORBIDDEN;
            case MALFORMED_TOKEN -> HttpStatus.BAD_REQUEST;
            case STALE_TOKEN, ANSWER_AFTER_EXPIRY -> HttpStatus.GONE;
            // What a schema cannot say (a key's format for its type, check digits, a code's CRC): well-formed JSON
            // that cannot be done, so 422; the OpenAPI document's patterns admit what the code takes.
            case INVALID_KEY, INVALID_TAX_ID, BR_CODE_MALFORMED, BR_CODE_CRC_MISMATCH ->
                HttpStatus.UNPROCESSABLE_CONTENT;
            case KEY_NOT_FOUND, CLAIM_NOT_FOUND -> HttpStatus.NOT_FOUND;
            case CLAIM_ALREADY_OPEN, CLAIM_CLOSED -> HttpStatus.CONFLICT;
            case CLAIM_OF_OWN_KEY, CLAIM_NOT_ALLOWED -> HttpStatus.UNPROCESSABLE_CONTENT;
            case KEY_ALREADY_REGISTERED, KEY_MOVED -> HttpStatus.CONFLICT;
            case KEY_LIMIT_REACHED,
                    KEY_HOLDER_MISMATCH,
                    UNKNOWN_LOOK_UP,
                    LOOK_UP_KEY_MISMATCH,
                    BR_CODE_NOT_PIX,
                    BR_CODE_UNSUPPORTED,
                    BR_CODE_INVALID_KEY,
                    BR_CODE_AMOUNT_MISMATCH -> HttpStatus.UNPROCESSABLE_CONTENT;
            case LOOK_UP_RATE_LIMITED -> HttpStatus.TOO_MANY_REQUESTS;
            case WATERMARKS_INVERTED,
                    REPORT_WINDOW_CLOSED,
                    REPORT_OF_A_RETURN,
                    REFUND_EXCEEDS_HELD,
                    REFUND_WINDOW_CLOSED -> HttpStatus.UNPROCESSABLE_CONTENT;
            case REPORT_NOT_FOUND -> HttpStatus.NOT_FOUND;
            case PAYMENT_ALREADY_REPORTED,
                    ANALYSIS_DEADLINE_PASSED,
                    REPORT_ALREADY_DECIDED,
                    REPORT_NOT_ACCEPTED,
                    REFUND_ALREADY_REQUESTED -> HttpStatus.CONFLICT;
            case NOT_THE_ANALYSING_BANK, NOT_THE_REPORTING_BANK -> HttpStatus.FORBIDDEN;
        };
    }

    /** A domain {@link RefusalReason} as service-support's problem+json base sees it: with its HTTP status. */
    static io.pagora.service.web.ProblemType http(RefusalReason type) {
        return new io.pagora.service.web.ProblemType(type.slug, type.title, statusOf(type));
    }

    /**
     * The problem type a framework-level error status maps to: the edge's, except that a 503 (an asynchronous
     * request timing out) is the database's, and any other status the edge does not name is an internal error.
     */
    static io.pagora.service.web.ProblemType typeOf(int status) {
        return switch (status) {
            case 400, 404, 405, 406, 413, 415 -> EdgeProblems.typeOf(status);
            case 503 -> HttpProblems.DATABASE_UNAVAILABLE;
            default -> EdgeProblems.INTERNAL_ERROR;
        };
    }

    /**
     * A 429 or 503 carries Retry-After: the wait the refusing limit computed (a token bucket: when enough tokens are
     * back), else {@link #RETRY_AFTER_SECONDS}.
     */
    static ResponseEntity<Object> response(Refusal problem, String path) {
        HttpStatus status = statusOf(problem.type());
        Check.that(
                problem.retryAfterSeconds() == 0
                        || status == HttpStatus.TOO_MANY_REQUESTS
                        || status == HttpStatus.SERVICE_UNAVAILABLE,
                "only a refusal for now says when to retry: %s",
                problem);
        return response(
                http(problem.type()),
                problem.field(),
                problem.detail(),
                path,
                problem.retryAfterSeconds() == 0 ? RETRY_AFTER_SECONDS : Long.toString(problem.retryAfterSeconds()),
                problem.numbers());
    }

    static ResponseEntity<Object> response(
            io.pagora.service.web.ProblemType type, @Nullable String field, String detail, @Nullable String path) {
        return response(type, field, detail, path, RETRY_AFTER_SECONDS, Map.of());
    }

    private static ResponseEntity<Object> response(
            io.pagora.service.web.ProblemType type,
            @Nullable String field,
            String detail,
            @Nullable String path,
            String retryAfterSeconds,
            Map<String, Long> numbers) {
        ProblemDetail problem = ProblemExceptionHandler.problem(type, detail);
        if (path != null) {
            problem.setInstance(URI.create(path));
        }
        if (field != null) {
            problem.setProperty("field", field);
        }
        numbers.forEach(problem::setProperty);
        ResponseEntity.BodyBuilder builder =
                ResponseEntity.status(problem.getStatus()).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (problem.getStatus() == HttpStatus.SERVICE_UNAVAILABLE.value()
                || problem.getStatus() == HttpStatus.TOO_MANY_REQUESTS.value()) {
            builder.header(HttpHeaders.RETRY_AFTER, retryAfterSeconds);
        }
        return builder.body(problem);
    }

    /** A problem embedded in a batch result: the same members as a problem+json document. */
    static Map<String, Object> embedded(Refusal problem) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", problem.type().uri().toString());
        body.put("title", problem.type().title);
        body.put("status", statusOf(problem.type()).value());
        body.put("detail", problem.detail());
        if (problem.field() != null) {
            body.put("field", problem.field());
        }
        body.putAll(problem.numbers());
        return body;
    }
}
