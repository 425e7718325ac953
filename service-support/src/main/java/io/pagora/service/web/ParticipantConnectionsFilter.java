package io.pagora.service.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Counts each authenticated caller's connections ({@link ParticipantConnections}) and answers a request on one
 * connection too many 429 {@code participant-connections-limited} with {@code Retry-After} and
 * {@code Connection: close}: the connection is closed with the answer, so a participant past its bound holds no
 * more than it may, and the request was not worked on (retry it on a connection the participant already holds, or
 * after Retry-After). Runs once the caller is known and before anything else looks at the request. A request without
 * a caller (the anonymous health probe) is not counted: Spring Security refuses the rest of them anyway.
 */
public final class ParticipantConnectionsFilter extends OncePerRequestFilter {

    static final String REFUSALS_METER = "pagora.connections.refused";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ParticipantConnections connections;
    private final Counter refusals;

    public ParticipantConnectionsFilter(ParticipantConnections connections, MeterRegistry meters) {
        this.connections = connections;
        this.refusals = Counter.builder(REFUSALS_METER)
                .description("requests answered 429 and their connection closed: their participant held its"
                        + " connections already (pagora.web.connections-per-participant-max)")
                .register(meters);
        Gauge.builder("pagora.connections.counted", connections, ParticipantConnections::connections)
                .description("connections counted against their participants (busy or kept alive)")
                .register(meters);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication caller = SecurityContextHolder.getContext().getAuthentication();
        if (caller == null
                || !caller.isAuthenticated()
                || connections.admit(
                        caller.getName(), request.getServletConnection().getConnectionId())) {
            chain.doFilter(request, response);
            return;
        }
        refusals.increment();
        Map<String, Object> problem = EdgeProblems.document(
                EdgeProblems.PARTICIPANT_CONNECTIONS_LIMITED,
                "this participant holds "
                        + connections.perParticipantMax()
                        + " connections already (pagora.web.connections-per-participant-max);"
                        + " this one is closed and nothing was done with its request: send it on a connection you hold, or"
                        + " retry after Retry-After");
        response.setStatus(EdgeProblems.PARTICIPANT_CONNECTIONS_LIMITED.status().value());
        response.setHeader("Retry-After", "1");
        // Tomcat closes the connection once the answer is written: it never counted, so nothing is left to forget.
        response.setHeader("Connection", "close");
        response.setContentType("application/problem+json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(JSON.writeValueAsString(problem));
    }
}
