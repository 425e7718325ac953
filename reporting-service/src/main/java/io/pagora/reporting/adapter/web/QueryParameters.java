package io.pagora.reporting.adapter.web;

import io.pagora.kernel.Id128;
import io.pagora.reporting.application.StatementCursor;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.service.web.ProblemException;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.PixId;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/** Parses path and query parameters, turning bad input into specific 400 problems. */
final class QueryParameters {

    private static final Pattern ISPB = Pattern.compile("[0-9]{8}");
    private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");
    private static final Pattern LIMIT = Pattern.compile("[0-9]{1,9}");
    /** Longer text is never a valid id: do not echo it back whole. */
    private static final int ECHO_LENGTH_MAX = 64;

    private QueryParameters() {}

    static Id128 paymentId(String text) {
        try {
            return PaymentId.parse(text).value();
        } catch (IllegalArgumentException e) {
            throw new ProblemException(
                    ReportingProblem.INVALID_PAYMENT_ID,
                    "'" + echo(text) + "' is not a payment id: 32 hexadecimal digits, the last two 00.");
        }
    }

    /** A PIX end-to-end id ({@link PixId}), or a 400 naming what is wrong with it. */
    static String endToEndId(String text) {
        PixId.problem(text, PixId.Kind.END_TO_END).ifPresent(problem -> {
            throw new ProblemException(
                    ReportingProblem.INVALID_END_TO_END_ID,
                    "'" + echo(text) + "' is not an end-to-end id: it " + problem
                            + ", e.g. E00000001202403041530abcDEF12345.");
        });
        return text;
    }

    static Id128 accountId(String text) {
        try {
            return Id128.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ProblemException(
                    ReportingProblem.INVALID_ACCOUNT_ID,
                    "'" + echo(text) + "' is not an account id: 32 hexadecimal digits.");
        }
    }

    static int ispb(String text) {
        if (!ISPB.matcher(text).matches()) {
            throw new ProblemException(
                    ReportingProblem.INVALID_ISPB,
                    "'" + echo(text) + "' is not an ISPB: exactly 8 digits, e.g. 00000001.");
        }
        return Integer.parseInt(text);
    }

    /** @param text null or blank for today (UTC) */
    static LocalDate utcDate(String text, LocalDate today) {
        if (text == null || text.isBlank()) {
            return today;
        }
        try {
            if (DATE.matcher(text).matches()) {
                return LocalDate.parse(text);
            }
        } catch (DateTimeParseException e) {
            // falls through to the problem
        }
        throw new ProblemException(
                ReportingProblem.INVALID_DATE,
                "'" + echo(text) + "' is not a calendar date in the form YYYY-MM-DD (a UTC day).");
    }

    /** @param text null or blank for the default */
    static int limit(String text, int defaultValue, int max) {
        if (text == null || text.isBlank()) {
            return defaultValue;
        }
        if (LIMIT.matcher(text).matches()) {
            int limit = Integer.parseInt(text);
            if (limit >= 1 && limit <= max) {
                return limit;
            }
        }
        throw new ProblemException(
                ReportingProblem.INVALID_LIMIT,
                "limit must be an integer from 1 to " + max + ", not '" + echo(text) + "'.");
    }

    /** @param text null or blank for the first page */
    static StatementCursor cursor(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        return StatementCursor.decode(text)
                .orElseThrow(() -> new ProblemException(
                        ReportingProblem.INVALID_CURSOR,
                        "'after' must be the 'next' value of a previous statement page, as given."));
    }

    /** @param text null or blank for every status */
    static PaymentStatus status(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        return PaymentStatus.parse(text)
                .orElseThrow(() -> new ProblemException(
                        ReportingProblem.INVALID_STATUS,
                        "status must be ACCEPTED, SETTLED, REJECTED or EXPIRED, not '" + echo(text) + "'."));
    }

    private static String echo(String text) {
        String printable = text.replaceAll("[^\\x20-\\x7E]", "?");
        return printable.length() <= ECHO_LENGTH_MAX ? printable : printable.substring(0, ECHO_LENGTH_MAX) + "...";
    }
}
