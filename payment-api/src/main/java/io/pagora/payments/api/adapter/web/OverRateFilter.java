package io.pagora.payments.api.adapter.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.payments.api.application.limits.ParticipantLimits;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.service.web.ParticipantConnections;
import io.pagora.settlement.domain.access.Caller;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * A single payment from a participant that has no token left is answered 429 {@code participant-rate-limited} here,
 * before Spring Security and Spring MVC see it. Under a flood nearly every request is such a refusal, and through
 * the whole framework a refusal cost about as much CPU as an acceptance (31 % of payment-api's samples were in
 * Spring Security and Spring MVC under a flood), so a flood took the other banks' CPU. Answered here, it skips both.
 *
 * <p>It only refuses, and only on a connection whose participant is known ({@link ParticipantConnections}: Spring
 * Security authenticated the connection's certificate on an earlier request, and a connection's certificate never
 * changes); it grants nothing. The first request of a connection, and every request while the participant has a
 * token, go the usual way, where the controller takes the token (so a race at the last token ends there). The answer
 * is the controller's own: the same problem document, {@code Retry-After}, and meters.
 */
public final class OverRateFilter extends OncePerRequestFilter {

    public static final String PATH = "/payments";
    static final String EARLY_REFUSALS_METER = "pagora.payments.refused.early";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ParticipantConnections connections;
    private final ParticipantLimits limits;
    private final AcceptMetrics acceptMetrics;
    private final Counter earlyRefusals;

    public OverRateFilter(ParticipantConnections connections, ParticipantLimits limits, MeterRegistry meters) {
        this.connections = connections;
        this.limits = limits;
        this.acceptMetrics = new AcceptMetrics(meters);
        this.earlyRefusals = Counter.builder(EARLY_REFUSALS_METER)
                .description("single payments answered 429 participant-rate-limited before authentication, on a"
                        + " connection whose participant was known (part of pagora.payments.requests)")
                .register(meters);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long started = System.nanoTime();
        Refusal refusal = refusal(request);
        if (refusal == null) {
            chain.doFilter(request, response);
            return;
        }
        earlyRefusals.increment();
        acceptMetrics.overLimit(AcceptMetrics.Endpoint.SINGLE, refusal, System.nanoTime() - started);
        Map<String, Object> document = Problems.embedded(refusal);
        document.put("instance", PATH);
        response.setStatus(Problems.statusOf(refusal.type()).value());
        response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(refusal.retryAfterSeconds()));
        // The headers of Spring Security's own that matter to an API client: this answer never reaches it.
        response.setHeader(HttpHeaders.CACHE_CONTROL, "no-cache, no-store, max-age=0, must-revalidate");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getOutputStream().write(JSON.writeValueAsBytes(document));
    }

    /** The refusal this request gets before anything else looks at it, or null: it goes the usual way. */
    private @Nullable Refusal refusal(HttpServletRequest request) {
        if (!"POST".equals(request.getMethod()) || !PATH.equals(request.getRequestURI())) {
            return null;
        }
        String participant =
                connections.participantOf(request.getServletConnection().getConnectionId());
        if (participant == null) {
            return null;
        }
        return Caller.ofPrincipalName(participant).flatMap(limits::refusalOfOne).orElse(null);
    }
}
