package io.pagora.payments.api.adapter.web;

import io.pagora.service.web.EdgeProblems;
import io.pagora.service.web.ProblemType;
import java.util.List;
import org.springframework.http.HttpStatus;

/**
 * payment-api's refusals that are about HTTP, not about payments: a body that cannot be read, a batch of the wrong
 * size, an outage met while answering, and the errors every service answers alike ({@link EdgeProblems}: among them
 * 401 {@code unauthenticated} and 403 {@code forbidden}, who may call at all and who may use a function). The
 * reasons a payment or an administration request is refused are the domain's
 * ({@link io.pagora.payments.api.domain.RefusalReason}).
 */
public final class HttpProblems {

    public static final ProblemType MALFORMED_JSON =
            new ProblemType("malformed-json", "Malformed JSON body", HttpStatus.BAD_REQUEST);
    public static final ProblemType INVALID_BATCH_SIZE =
            new ProblemType("invalid-batch-size", "Invalid batch size", HttpStatus.UNPROCESSABLE_CONTENT);
    public static final ProblemType LEDGER_UNAVAILABLE =
            new ProblemType("ledger-unavailable", "Ledger unavailable", HttpStatus.SERVICE_UNAVAILABLE);
    public static final ProblemType DATABASE_UNAVAILABLE =
            new ProblemType("database-unavailable", "Database unavailable", HttpStatus.SERVICE_UNAVAILABLE);

    /** Every type of this class, for the metrics registered up front and the OpenAPI document's list. */
    public static final List<ProblemType> ALL = List.of(
            MALFORMED_JSON,
            INVALID_BATCH_SIZE,
            LEDGER_UNAVAILABLE,
            DATABASE_UNAVAILABLE,
            EdgeProblems.UNSUPPORTED_MEDIA_TYPE,
            EdgeProblems.PAYLOAD_TOO_LARGE,
            EdgeProblems.NOT_FOUND,
            EdgeProblems.METHOD_NOT_ALLOWED,
            EdgeProblems.NOT_ACCEPTABLE,
            EdgeProblems.BAD_REQUEST,
            EdgeProblems.INVALID_HEADER,
            EdgeProblems.INTERNAL_ERROR,
            EdgeProblems.UNAUTHENTICATED,
            EdgeProblems.FORBIDDEN,
            EdgeProblems.PARTICIPANT_CONNECTIONS_LIMITED);

    private HttpProblems() {}
}
