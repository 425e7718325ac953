package io.pagora.payments.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.testing.Http;
import io.pagora.testing.TestCertificates;
import io.pagora.testing.fuzz.RawHttp;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Malformed request envelopes over mutual TLS are answered as problems, never 500, sent byte for byte as a client
 * would: a {@code multipart/form-data} Content-Type without a boundary (these APIs take no multipart: a body endpoint
 * refuses it 415 naming the header, a request without a body is served as if it had none, like any unusable
 * Content-Type), and a header value with bytes outside ASCII (ISO-8859-1 {@code ×ø} in Idempotency-Key: 400
 * {@code invalid-header} naming the header, before anything reads it).
 */
class HostileEnvelopeTest extends PaymentApiIntegrationTest {

    /**
     * {@code ×ø} as the UTF-8 bytes curl sends from a UTF-8 terminal (C3 97 C3 B8: 0x97 read
     * as ISO-8859-1, as Tomcat reads header bytes, is a C1 control, which Spring Security's firewall rejects when the
     * header is read), and as ISO-8859-1 bytes. RawHttp writes each character as one byte.
     */
    static final List<String> NON_ASCII = List.of("\u00c3\u0097\u00c3\u00b8", "\u00d7\u00f8");

    Participants participants;
    String account;

    @BeforeEach
    void openAnAccount() {
        participants = new Participants(port);
        participants.registerBank(1, "Banco Um");
        account = participants.openAccount(1);
    }

    @Test
    void aMultipartContentTypeWithoutBoundaryOnABodyIsAnUnsupportedMediaType() {
        RawHttp.Response response = send(
                bank(),
                "POST",
                "/accounts",
                List.of(Map.entry("Content-Type", "multipart/form-data")),
                "{\"ispb\": 1}");

        assertProblem(response, 415, "unsupported-media-type");
        assertThat(problem(response).path("detail").asString()).contains("multipart/form-data");
    }

    @Test
    void aMultipartContentTypeWithoutBoundaryOnARequestWithoutBodyIsIgnored() {
        RawHttp.Response response =
                send(bank(), "GET", "/openapi.yaml", List.of(Map.entry("Content-Type", "multipart/form-data")), null);

        assertThat(response.status()).as(response.bodyText()).isEqualTo(200);
        assertThat(response.bodyText()).contains("openapi:");
    }

    @Test
    void aNonAsciiIdempotencyKeyIsAnInvalidHeaderOnEveryWriteThatReadsIt() {
        String funding = "{\"amountCentavos\": 100}";
        String payment = "{\"payerAccountId\": \"" + account + "\", \"payeeAccountId\": \""
                + participants.openAccount(1) + "\", \"amountCentavos\": 1, \"currency\": \"BRL\"}";
        for (String key : NON_ASCII) {
            List<RawHttp.Response> answers = List.of(
                    send(bank(), "POST", "/payments", json("Idempotency-Key", key), payment),
                    send(bank(), "POST", "/accounts/" + account + "/fundings", json("Idempotency-Key", key), funding),
                    send(operator(), "POST", "/banks/1/reserve-fundings", json("Idempotency-Key", key), funding));

            for (RawHttp.Response response : answers) {
                assertProblem(response, 400, "invalid-header");
                assertThat(problem(response).path("field").asString()).isEqualTo("Idempotency-Key");
            }
        }
    }

    @Test
    void aNonAsciiValueInAHeaderTheFrameworkReadsIsAnInvalidHeader() {
        for (String value : NON_ASCII) {
            RawHttp.Response response = send(
                    bank(),
                    "GET",
                    "/accounts/" + account + "/balance",
                    List.of(Map.entry("Accept", "application/json" + value)),
                    null);

            assertProblem(response, 400, "invalid-header");
            assertThat(problem(response).path("field").asString()).isEqualTo("Accept");
        }
    }

    /** Found by the extended fuzz (an empty Accept): the Prometheus endpoint failed with a NullPointerException. */
    @Test
    void anEmptyAcceptIsNoAccept() {
        RawHttp.Response response =
                send(operator(), "GET", "/actuator/prometheus", List.of(Map.entry("Accept", "")), null);

        assertThat(response.status()).as(response.bodyText()).isEqualTo(200);
        assertThat(response.bodyText()).contains("# TYPE");
    }

    /**
     * Found by the extended fuzz (Range values): the document went out as a Resource, which Spring serves in ranges;
     * a range beyond it was answered 416 with the whole document as its body, a status the document does not list.
     */
    @Test
    void aRangeIsIgnoredOnTheDocument() {
        for (String range : List.of("bytes=99999999-", "bytes=5-1", "bytes=0-0,1-1")) {
            RawHttp.Response response = send(bank(), "GET", "/openapi.yaml", List.of(Map.entry("Range", range)), null);

            assertThat(response.status()).as(range).isEqualTo(200);
            assertThat(response.bodyText()).startsWith("openapi: 3.1.0");
        }
    }

    private static List<Map.Entry<String, String>> json(String header, String value) {
        return List.of(Map.entry("Content-Type", "application/json"), Map.entry(header, value));
    }

    private static SSLContext bank() {
        return TestCertificates.shared().bank(1).sslContext();
    }

    private static SSLContext operator() {
        return TestCertificates.shared().operator().sslContext();
    }

    private RawHttp.Response send(
            SSLContext caller, String method, String target, List<Map.Entry<String, String>> headers, String body) {
        return new RawHttp(port, 15_000, caller)
                .exchange(method, target, headers, body == null ? null : body.getBytes(StandardCharsets.UTF_8));
    }

    static void assertProblem(RawHttp.Response response, int status, String slug) {
        assertThat(response.status()).as(response.bodyText()).isEqualTo(status);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        assertThat(problem(response).path("type").asString()).isEqualTo("https://pagora.io/problems/" + slug);
        assertThat(problem(response).path("status").asInt()).isEqualTo(status);
    }

    static JsonNode problem(RawHttp.Response response) {
        return Http.JSON.readTree(response.body());
    }
}
