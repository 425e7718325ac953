package io.pagora.payments.api.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pagora.service.web.ParticipantConnections;
import io.pagora.settlement.domain.access.Caller;
import jakarta.servlet.ServletConnection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The first {@value AnswerTimingFilter#PARTICIPANTS_MAX} banks get their own series; a later bank and the operator
 * share {@code other}, and are answered so without the lock that registers a bank: a call that can never get its own
 * meters never waits on the switch-wide monitor. On Spring's servlet fakes and a simple registry.
 */
class AnswerTimingFilterTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ParticipantConnections connections =
            new ParticipantConnections(4, 60_000_000_000L, 1_000, System::nanoTime);
    private final AnswerTimingFilter filter = new AnswerTimingFilter(connections, registry);
    private int connectionIds;

    @Test
    void aBankPastTheFirst32AndTheOperatorShareOtherWithoutTakingTheRegistrationLock() throws Exception {
        for (int bank = 1; bank <= AnswerTimingFilter.PARTICIPANTS_MAX; bank++) {
            call(Caller.bank(bank).principalName());
        }
        assertThat(callsOf("00000032")).isEqualTo(1);

        // Whoever holds the registration lock (a bank being registered), these calls do not wait for it.
        CompletableFuture<Void> unregistered;
        synchronized (filter) {
            unregistered = CompletableFuture.runAsync(() -> {
                call(Caller.bank(AnswerTimingFilter.PARTICIPANTS_MAX + 1).principalName());
                call(Caller.OPERATOR.principalName());
            });
            unregistered.get(10, TimeUnit.SECONDS);
        }

        assertThat(callsOf(AnswerTimingFilter.OTHER))
                .as("the 33rd bank and the operator")
                .isEqualTo(2);
        assertThat(registry.find(AnswerTimingFilter.CALLS)
                        .tag("participant", "00000033")
                        .counters())
                .isEmpty();
        assertThat(registry.find(AnswerTimingFilter.CALLS).counters().stream()
                        .map(counter -> counter.getId().getTag("participant"))
                        .distinct())
                .hasSize(AnswerTimingFilter.PARTICIPANTS_MAX + 1);
    }

    /** One {@code POST /payments} answered 202, on a new connection counted for {@code principal}. */
    private void call(String principal) {
        String connectionId = "connection-" + (++connectionIds);
        assertThat(connections.admit(principal, connectionId)).isTrue();
        MockHttpServletRequest request = new MockHttpServletRequest("POST", AnswerTimingFilter.SINGLE_PATH) {
            @Override
            public ServletConnection getServletConnection() {
                return new ServletConnection() {
                    @Override
                    public String getConnectionId() {
                        return connectionId;
                    }

                    @Override
                    public String getProtocol() {
                        return "HTTP/1.1";
                    }

                    @Override
                    public String getProtocolConnectionId() {
                        return "";
                    }

                    @Override
                    public boolean isSecure() {
                        return true;
                    }
                };
            }
        };
        MockHttpServletResponse response = new MockHttpServletResponse();
        response.setStatus(202);
        try {
            filter.doFilter(request, response, new MockFilterChain());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private double callsOf(String participant) {
        return registry
                .find(AnswerTimingFilter.CALLS)
                .tag("participant", participant)
                .tag("answer", "202")
                .counters()
                .stream()
                .mapToDouble(counter -> counter.count())
                .sum();
    }
}
