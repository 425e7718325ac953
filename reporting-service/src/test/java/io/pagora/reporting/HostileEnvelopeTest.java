package io.pagora.reporting;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.reporting.testsupport.Payments;
import io.pagora.reporting.testsupport.ReportingIntegrationTest;
import io.pagora.testing.Http;
import io.pagora.testing.TestCertificates;
import io.pagora.testing.fuzz.RawHttp;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Envelopes a fuzzer sends over mutual TLS, byte for byte, each answered with a typed problem (never a 500): a
 * {@code multipart/form-data} Content-Type without a boundary on every query (reporting takes no bodies: it is
 * served as if the request had no Content-Type, like any unusable one), and header values with bytes outside ASCII
 * in the headers the service reads (400 {@code invalid-header} naming the header).
 */
class HostileEnvelopeTest extends ReportingIntegrationTest {

    /** {@code ×ø} as curl sends it from a UTF-8 terminal (0x97 is a C1 control read as ISO-8859-1), and as ISO-8859-1. */
    static final List<String> NON_ASCII = List.of("\u00c3\u0097\u00c3\u00b8", "\u00d7\u00f8");

    static final Map.Entry<String, String> MULTIPART_WITHOUT_BOUNDARY =
            Map.entry("Content-Type", "multipart/form-data");

    @Test
    void aMultipartContentTypeWithoutBoundaryIsIgnoredOnEveryQuery() {
        String account = Payments.customer(7);
        SSLContext bank = TestCertificates.shared().bank(7).sslContext();
        SSLContext operator = TestCertificates.shared().operator().sslContext();
        List<Map.Entry<String, SSLContext>> queries = List.of(
                Map.entry(
                        "/payments/"
                                + Payments.between(account, Payments.customer(8), 1)
                                        .paymentId(),
                        bank),
                Map.entry("/payments?limit=10", bank),
                Map.entry("/accounts/" + account + "/statement?limit=10", bank),
                Map.entry("/banks/7/positions", operator),
                Map.entry("/stats", operator),
                Map.entry("/openapi.yaml", bank));

        SoftAssertions softly = new SoftAssertions();
        for (Map.Entry<String, SSLContext> query : queries) {
            RawHttp http = new RawHttp(port, 15_000, query.getValue());
            RawHttp.Response plain = http.exchange("GET", query.getKey(), List.of(), null);
            RawHttp.Response multipart =
                    http.exchange("GET", query.getKey(), List.of(MULTIPART_WITHOUT_BOUNDARY), null);

            softly.assertThat(multipart.status())
                    .as(query.getKey() + ": " + multipart.bodyText())
                    .isEqualTo(plain.status())
                    .isLessThan(500);
        }
        softly.assertAll();
    }

    /** Found by the extended fuzz (an empty Accept): the Prometheus endpoint failed with a NullPointerException. */
    @Test
    void anEmptyAcceptIsNoAccept() {
        RawHttp.Response response = new RawHttp(
                        port, 15_000, TestCertificates.shared().operator().sslContext())
                .exchange("GET", "/actuator/prometheus", List.of(Map.entry("Accept", "")), null);

        assertThat(response.status()).as(response.bodyText()).isEqualTo(200);
        assertThat(response.bodyText()).contains("# TYPE");
    }

    /**
     * The OpenAPI document is a static file, served with HTTP's ranges: a range beyond it is a 416 with a type of its
     * own (not a 400's bad-request type).
     */
    @Test
    void aRangeBeyondTheDocumentIsARangeNotSatisfiableProblem() {
        RawHttp.Response response = new RawHttp(
                        port, 15_000, TestCertificates.shared().bank(7).sslContext())
                .exchange("GET", "/openapi.yaml", List.of(Map.entry("Range", "bytes=99999999-")), null);

        assertThat(response.status()).as(response.bodyText()).isEqualTo(416);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
        JsonNode problem = Http.JSON.readTree(response.body());
        assertThat(problem.path("type").asString()).isEqualTo("https://pagora.io/problems/range-not-satisfiable");
        assertThat(problem.path("status").asInt()).isEqualTo(416);
    }

    @Test
    void aNonAsciiValueInAHeaderTheServiceReadsIsAnInvalidHeader() {
        SSLContext operator = TestCertificates.shared().operator().sslContext();
        for (String value : NON_ASCII) {
            for (String header : List.of("Accept", "Content-Type")) {
                RawHttp.Response response = new RawHttp(port, 15_000, operator)
                        .exchange("GET", "/stats", List.of(Map.entry(header, "application/json" + value)), null);

                assertThat(response.status())
                        .as(header + ": " + response.bodyText())
                        .isEqualTo(400);
                assertThat(response.header("Content-Type")).startsWith("application/problem+json");
                JsonNode problem = Http.JSON.readTree(response.body());
                assertThat(problem.path("type").asString()).isEqualTo("https://pagora.io/problems/invalid-header");
                assertThat(problem.path("field").asString()).isEqualTo(header);
            }
        }
    }
}
