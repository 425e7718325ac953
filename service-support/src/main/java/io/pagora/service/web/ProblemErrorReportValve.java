package io.pagora.service.web;

import java.io.IOException;
import java.io.Writer;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Tomcat's own error pages as RFC 9457 problem+json: what Tomcat refuses before any servlet runs (a
 * header section over the limit, a bad request line or URI, broken chunked framing) and every error sent
 * without a body ({@code sendError}; the services register no error page), instead of Tomcat's HTML page.
 * Refusals of the HTTP framing that Tomcat answers with 417 or 501 (an unknown {@code Expect} or
 * {@code Transfer-Encoding}) are bad requests for these APIs, so they are answered 400: a client's
 * mistake is never a 5xx.
 */
public final class ProblemErrorReportValve extends ErrorReportValve {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<Integer> FRAMING_REFUSALS = Set.of(417, 501, 505);
    private static final int DETAIL_CHARS_MAX = 200;

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(false);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        if (FRAMING_REFUSALS.contains(status)) {
            status = 400;
            response.setStatus(status);
        }
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write(JSON.writeValueAsString(EdgeProblems.document(status, detail(status, throwable))));
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // The client is gone or the response is already committed: nothing more can be said.
        }
    }

    /** Why, in words a client can act on; Tomcat's message names the limit or the bad part, never internals. */
    private static String detail(int status, Throwable throwable) {
        if (status >= 500) {
            return "an unexpected error occurred and was logged";
        }
        String reason = switch (status) {
            case 404 -> "no resource at this path";
            case 405 -> "this method is not allowed on this resource";
            case 413 -> "the request is too large";
            case 416 -> "the requested range is not within the resource";
            default -> "the request is malformed at the HTTP level (request line, URI, headers or framing)";
        };
        if (throwable == null || throwable.getMessage() == null) {
            return reason;
        }
        String message = throwable.getMessage().replaceAll("[^\\x20-\\x7E]", "?");
        return reason + ": "
                + (message.length() <= DETAIL_CHARS_MAX ? message : message.substring(0, DETAIL_CHARS_MAX) + "...");
    }
}
