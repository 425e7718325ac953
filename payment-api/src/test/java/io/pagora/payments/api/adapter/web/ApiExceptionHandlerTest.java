package io.pagora.payments.api.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

/**
 * A broker failure under a stream pull (the read's position or fetch timed out) is transient: the bank is told to
 * retry, 503 broker-unavailable with Retry-After, never the generic 500 its client would take for a bug.
 */
class ApiExceptionHandlerTest {

    @Test
    void aBrokerTimeoutUnderAPullIs503BrokerUnavailableWithRetryAfter() {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/participants/00000002/stream/abc");

        var response = new ApiExceptionHandler().brokerUnavailable(new TimeoutException("position timed out"), request);

        assertThat(response.getStatusCode().value()).isEqualTo(503);
        assertThat(response.getHeaders().getFirst("Retry-After")).isEqualTo("1");
        assertThat(String.valueOf(response.getBody())).contains("broker-unavailable");
    }
}
