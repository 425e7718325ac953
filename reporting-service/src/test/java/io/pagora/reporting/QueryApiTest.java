package io.pagora.reporting;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.reporting.testsupport.ReportingIntegrationTest;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.testing.Http;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * Proves the HTTP contract around the queries: every malformed parameter is a 400 RFC 9457 problem
 * (application/problem+json) with its own type and a detail, never a 500; an unknown payment is a 404
 * problem; the hand-written OpenAPI document, health and Prometheus endpoints are served; an empty read
 * model answers with zeros and empty lists.
 */
class QueryApiTest extends ReportingIntegrationTest {

    private static final String ACCOUNT = "04000000000000070000000000000001";

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            /payments/xyz                                                  | invalid-payment-id
            /payments/0190f5d3a1b2c3d4e5f60718293a4b01                     | invalid-payment-id
            /payments/0190f5d3a1b2c3d4e5f60718293a4b0000                   | invalid-payment-id
            /accounts/nothex/statement                                     | invalid-account-id
            /accounts/ACCOUNT/statement?limit=0                            | invalid-limit
            /accounts/ACCOUNT/statement?limit=501                          | invalid-limit
            /accounts/ACCOUNT/statement?limit=-1                           | invalid-limit
            /accounts/ACCOUNT/statement?limit=ten                          | invalid-limit
            /accounts/ACCOUNT/statement?limit=99999999999999999999         | invalid-limit
            /accounts/ACCOUNT/statement?after=garbage!                     | invalid-cursor
            /accounts/ACCOUNT/statement?after=CURSOR_BAD_ID                | invalid-cursor
            /accounts/ACCOUNT/statement?after=CURSOR_BAD_TIME              | invalid-cursor
            /banks/123/positions                                           | invalid-ispb
            /banks/000000001/positions                                     | invalid-ispb
            /banks/abcdefgh/positions                                      | invalid-ispb
            /banks/00000001/positions?date=2024-02-30                      | invalid-date
            /banks/00000001/positions?date=2024-13-01                      | invalid-date
            /banks/00000001/positions?date=20240101                        | invalid-date
            /banks/00000001/positions?date=yesterday                       | invalid-date
            /payments?status=PAID                                          | invalid-status
            /payments?limit=101                                            | invalid-limit
            /payments?limit=0                                              | invalid-limit
            """)
    void badParametersAreSpecificProblems(String path, String type) {
        String resolved = path.replace("ACCOUNT", ACCOUNT)
                .replace("CURSOR_BAD_ID", cursor("s1:1700000000000000:nothex:D"))
                .replace("CURSOR_BAD_TIME", cursor("s1:-5:0190f5d3a1b2c3d4e5f60718293a4b00:D"));
        Http.Response response = bank(7).get(resolved);
        assertThat(response.status()).as(response.body()).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        JsonNode problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("https://pagora.io/problems/" + type);
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        assertThat(problem.get("title").asString()).isNotBlank();
        assertThat(problem.get("detail").asString()).isNotBlank();
        assertThat(response.body()).doesNotContain("Exception").doesNotContain("at io.pagora");
    }

    @Test
    void anUnknownPaymentIsA404Problem() {
        String id = new TimeOrderedIds().next().toString();
        Http.Response response = bank(1).get("/payments/" + id);
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().get("type").asString()).isEqualTo("https://pagora.io/problems/unknown-payment");
        assertThat(response.json().get("detail").asString()).contains(id);
    }

    @Test
    void anUnknownPathIsA404ProblemToo() {
        Http.Response response = bank(1).get("/nothing/here");
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.contentType()).startsWith("application/problem+json");
    }

    @Test
    void anEmptyReadModelAnswersWithZerosAndEmptyLists() {
        JsonNode stats = operator().json("/stats");
        assertThat(stats.get("total").asLong()).isZero();
        assertThat(stats.get("counts").get("ACCEPTED").asLong()).isZero();
        assertThat(stats.get("counts").get("SETTLED").asLong()).isZero();
        assertThat(stats.get("maxFinalAt").isNull()).isTrue();

        JsonNode statement = bankOf(ACCOUNT).json("/accounts/" + ACCOUNT + "/statement");
        assertThat(statement.get("entries")).isEmpty();
        assertThat(statement.get("limit").asInt()).isEqualTo(50);

        JsonNode position = bank(7).json("/banks/00000007/positions?date=2030-01-01");
        assertThat(position.get("netCentavos").asLong()).isZero();
        assertThat(position.get("sentCount").asLong()).isZero();

        JsonNode listing = bank(7).json("/payments?status=settled&limit=5");
        assertThat(listing.get("limit").asInt()).isEqualTo(5);
        assertThat(listing.get("payments")).isEmpty();
    }

    @Test
    void openApiHealthAndMetricsAreServed() {
        Http.Response openApi = bank(7).get("/openapi.yaml");
        assertThat(openApi.status()).isEqualTo(200);
        assertThat(openApi.contentType()).contains("yaml");
        assertThat(openApi.body()).startsWith("openapi: 3.1.0").contains("/accounts/{accountId}/statement");

        Http.Response health = anonymous().get("/actuator/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().get("status").asString()).isEqualTo("UP");

        String metrics = operator().get("/actuator/prometheus").body();
        assertThat(metrics)
                .contains("pagora_reporting_conflicting_outcomes_total")
                .contains("pagora_reporting_dead_letters_total")
                .contains("pagora_reporting_poll_events");
    }

    private static String cursor(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
    }
}
