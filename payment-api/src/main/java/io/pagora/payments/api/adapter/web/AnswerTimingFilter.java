package io.pagora.payments.api.adapter.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pagora.kernel.Check;
import io.pagora.service.metrics.LatencyHistograms;
import io.pagora.service.web.ParticipantConnections;
import io.pagora.settlement.domain.access.Caller;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.cert.X509Certificate;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.security.auth.x500.X500Principal;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Each participant's payment calls as the server itself saw them, for judging one bank's service apart from another
 * bank's flood (and apart from any client's own queueing):
 * <ul>
 *   <li>{@value #ANSWER_TIMER} (timer, {@link LatencyHistograms}' buckets; {@code participant}, {@code endpoint}):
 *       from the request read (before any limit, Spring Security or Spring MVC) to its answer written to the
 *       connection;
 *   <li>{@value #CALLS} (counter; {@code participant}, {@code endpoint}, {@code answer}): every call read, by its
 *       answer ({@link Answer}), so "calls read" and "calls answered 202, 429 with Retry-After or 503
 *       outcome-unknown" compare.
 * </ul>
 * {@code participant} is the bank's ISPB (8 digits), for the first {@value #PARTICIPANTS_MAX} banks seen; later banks,
 * and callers that are not a bank or not known, are {@code other}: every tag comes from a bounded set.
 *
 * <p>Runs first after the edge's header checks, on {@code POST /payments} and {@code POST /payments/batch}. The
 * caller is known when the answer is ready: its connection was counted for it ({@link ParticipantConnections}) by
 * then, a map lookup; only a connection left uncounted (refused for holding too many) is named by its certificate.
 * The answer is written here ({@link #finish}): as Tomcat would right after, with its {@code Content-Length}.
 */
public final class AnswerTimingFilter extends OncePerRequestFilter {

    public static final String SINGLE_PATH = "/payments";
    public static final String BATCH_PATH = "/payments/batch";
    static final String ANSWER_TIMER = "pagora.payments.participant.answer";
    static final String CALLS = "pagora.payments.participant.calls";
    /** Banks given their own series (each a histogram of ~70 buckets per endpoint); the rest share {@code other}. */
    static final int PARTICIPANTS_MAX = 32;

    static final String OTHER = "other";
    private static final String OUTCOME_UNKNOWN_ATTRIBUTE = AnswerTimingFilter.class.getName() + ".outcomeUnknown";
    private static final String CERTIFICATE_ATTRIBUTE = "jakarta.servlet.request.X509Certificate";

    /** What a call was answered, as {@value #CALLS}' {@code answer} tag. */
    enum Answer {
        ACCEPTED("202"),
        BATCH_ANSWERED("200"),
        RETRY_AFTER("429-retry-after"),
        OUTCOME_UNKNOWN("503-outcome-unknown"),
        UNAVAILABLE("503-other"),
        REFUSED("4xx-other"),
        FAILED("5xx-other"),
        OTHER("other");

        final String tag;

        Answer(String tag) {
            this.tag = tag;
        }
    }

    private final ParticipantConnections connections;
    private final MeterRegistry registry;
    /** By principal name ({@code ispb-NNNNNNNN}): at most {@link #PARTICIPANTS_MAX}. */
    private final ConcurrentHashMap<String, Meters> participants = new ConcurrentHashMap<>();

    private final Meters other;

    public AnswerTimingFilter(ParticipantConnections connections, MeterRegistry registry) {
        this.connections = connections;
        this.registry = registry;
        this.other = new Meters(registry, OTHER);
    }

    /** This request is answered 503 outcome-unknown: the one 503 whose kind the status and headers do not tell. */
    static void outcomeUnknown(HttpServletRequest request) {
        request.setAttribute(OUTCOME_UNKNOWN_ATTRIBUTE, Boolean.TRUE);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!"POST".equals(request.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        long started = System.nanoTime();
        AcceptMetrics.Endpoint endpoint = request.getRequestURI().endsWith(BATCH_PATH)
                ? AcceptMetrics.Endpoint.BATCH
                : AcceptMetrics.Endpoint.SINGLE;
        Answer answer = Answer.FAILED;
        try {
            chain.doFilter(request, response);
            finish(request, response);
            answer = answerOf(
                    response.getStatus(),
                    response.containsHeader(HttpHeaders.RETRY_AFTER),
                    request.getAttribute(OUTCOME_UNKNOWN_ATTRIBUTE) != null);
        } finally {
            // A failure (the container answers 500) or a connection gone before the answer: counted as failed.
            metersOf(request).record(endpoint, answer, System.nanoTime() - started);
        }
    }

    /**
     * Writes the answer now, so that its time includes the writing: closing the stream, as Tomcat does once the
     * request is done, sets its {@code Content-Length} (a flush would send it chunked). After {@code sendError} the
     * response is suspended and the close does nothing: Tomcat's error report writes that answer.
     */
    private static void finish(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.isAsyncStarted()) {
            return;
        }
        try {
            response.getOutputStream().close();
        } catch (IllegalStateException writerUsed) {
            // The answer was written through the writer (an edge filter's refusal): closing that one does the same.
            response.getWriter().close();
        }
    }

    static Answer answerOf(int status, boolean retryAfter, boolean outcomeUnknown) {
        if (status == 202) {
            return Answer.ACCEPTED;
        }
        if (status == 200) {
            return Answer.BATCH_ANSWERED;
        }
        if (status == 429 && retryAfter) {
            return Answer.RETRY_AFTER;
        }
        if (status == 503) {
            return outcomeUnknown ? Answer.OUTCOME_UNKNOWN : Answer.UNAVAILABLE;
        }
        if (status >= 400 && status < 500) {
            return Answer.REFUSED;
        }
        return status >= 500 && status < 600 ? Answer.FAILED : Answer.OTHER;
    }

    private Meters metersOf(HttpServletRequest request) {
        String principal =
                connections.participantOf(request.getServletConnection().getConnectionId());
        if (principal == null) {
            principal = certificateName(request);
        }
        if (principal == null) {
            return other;
        }
        Meters known = participants.get(principal);
        if (known != null) {
            return known;
        }
        // Most misses never get meters of their own (the operator, every bank past the first ones): they are
        // answered here, without the lock every such call of the switch would otherwise wait on.
        if (participants.size() >= PARTICIPANTS_MAX
                || !(Caller.ofPrincipalName(principal).orElse(null) instanceof Caller.Bank bank)) {
            return other;
        }
        return register(principal, bank);
    }

    /** A bank seen for the first time: its own meters while fewer than {@link #PARTICIPANTS_MAX} have them. */
    private synchronized Meters register(String principal, Caller.Bank bank) {
        Meters known = participants.get(principal);
        if (known != null) {
            return known;
        }
        if (participants.size() >= PARTICIPANTS_MAX) {
            return other;
        }
        Meters meters = new Meters(registry, bank.bank().toString());
        participants.put(principal, meters);
        Check.that(participants.size() <= PARTICIPANTS_MAX, "participants with meters bounded");
        return meters;
    }

    /** The client certificate's one common name, or null (none, several, or no certificate). */
    private static @Nullable String certificateName(HttpServletRequest request) {
        if (!(request.getAttribute(CERTIFICATE_ATTRIBUTE) instanceof X509Certificate[] chain) || chain.length == 0) {
            return null;
        }
        String name = null;
        try {
            for (Rdn rdn : new LdapName(chain[0].getSubjectX500Principal().getName(X500Principal.RFC2253)).getRdns()) {
                if (rdn.size() != 1) {
                    return null;
                }
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    if (name != null || !(rdn.getValue() instanceof String value)) {
                        return null;
                    }
                    name = value;
                }
            }
        } catch (InvalidNameException e) {
            return null;
        }
        return name;
    }

    /** One participant's meters, registered up front so that the first call allocates nothing. */
    private static final class Meters {

        private final Timer[] timers = new Timer[AcceptMetrics.Endpoint.values().length];
        private final Counter[][] calls = new Counter[AcceptMetrics.Endpoint.values().length][Answer.values().length];

        Meters(MeterRegistry registry, String participant) {
            for (AcceptMetrics.Endpoint endpoint : AcceptMetrics.Endpoint.values()) {
                timers[endpoint.ordinal()] = LatencyHistograms.timer(
                                ANSWER_TIMER,
                                "Time from a payment call read (before any limit) to its answer written, per participant")
                        .tag("participant", participant)
                        .tag("endpoint", endpoint.tag)
                        .register(registry);
                for (Answer answer : Answer.values()) {
                    calls[endpoint.ordinal()][answer.ordinal()] = Counter.builder(CALLS)
                            .description("Payment calls read, per participant, by their answer")
                            .tag("participant", participant)
                            .tag("endpoint", endpoint.tag)
                            .tag("answer", answer.tag)
                            .register(registry);
                }
            }
        }

        void record(AcceptMetrics.Endpoint endpoint, Answer answer, long elapsedNanos) {
            timers[endpoint.ordinal()].record(elapsedNanos, TimeUnit.NANOSECONDS);
            calls[endpoint.ordinal()][answer.ordinal()].increment();
        }
    }
}
