package io.pagora.reporting.adapter.web;

import static org.springframework.http.HttpStatus.BAD_REQUEST;
import static org.springframework.http.HttpStatus.NOT_FOUND;
import static org.springframework.http.HttpStatus.SERVICE_UNAVAILABLE;

import io.pagora.service.web.ProblemType;

/** Every way reporting-service refuses a query, besides the errors every service answers alike (EdgeProblems). */
final class ReportingProblem {

    static final ProblemType INVALID_PAYMENT_ID =
            new ProblemType("invalid-payment-id", "Invalid payment id", BAD_REQUEST);
    static final ProblemType INVALID_ACCOUNT_ID =
            new ProblemType("invalid-account-id", "Invalid account id", BAD_REQUEST);
    static final ProblemType INVALID_ISPB = new ProblemType("invalid-ispb", "Invalid ISPB", BAD_REQUEST);
    static final ProblemType INVALID_DATE = new ProblemType("invalid-date", "Invalid date", BAD_REQUEST);
    static final ProblemType INVALID_LIMIT = new ProblemType("invalid-limit", "Invalid limit", BAD_REQUEST);
    static final ProblemType INVALID_CURSOR = new ProblemType("invalid-cursor", "Invalid cursor", BAD_REQUEST);
    static final ProblemType INVALID_STATUS = new ProblemType("invalid-status", "Invalid status", BAD_REQUEST);
    static final ProblemType INVALID_END_TO_END_ID =
            new ProblemType("invalid-end-to-end-id", "Invalid end-to-end id", BAD_REQUEST);
    static final ProblemType UNKNOWN_PAYMENT = new ProblemType("unknown-payment", "Unknown payment", NOT_FOUND);
    /** Another bank's account: answered from the id alone, whether or not the account exists. */
    static final ProblemType UNKNOWN_ACCOUNT = new ProblemType("unknown-account", "Unknown account", NOT_FOUND);
    /** Another bank's positions, asked by a bank: answered from the ISPB alone. */
    static final ProblemType UNKNOWN_BANK = new ProblemType("unknown-bank", "Unknown bank", NOT_FOUND);

    static final ProblemType READ_MODEL_UNAVAILABLE =
            new ProblemType("read-model-unavailable", "Read model unavailable", SERVICE_UNAVAILABLE);

    private ReportingProblem() {}
}
