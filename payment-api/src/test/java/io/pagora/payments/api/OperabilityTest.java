package io.pagora.payments.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.adapter.web.HttpProblems;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.testing.Http;
import io.pagora.testing.TestCertificates;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.yaml.snakeyaml.Yaml;

/**
 * Proves payment-api is operable and self-describing: {@code GET /openapi.yaml} serves an OpenAPI 3.1
 * document that documents exactly the endpoints the application maps (path and method) and every
 * problem type it can answer; {@code /actuator/health} is UP with the ledger checked (its status for anyone: probes present no
 * certificate); and {@code /actuator/prometheus} exposes the service's metrics (to the operator).
 */
class OperabilityTest extends PaymentApiIntegrationTest {

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @Test
    @SuppressWarnings("unchecked")
    void openApiDocumentMatchesTheMappedEndpointsAndProblemTypes() {
        Http.Response response =
                Http.as(TestCertificates.shared().bank(1), port).get("/openapi.yaml");
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.contentType()).isEqualTo("application/yaml");
        Map<String, Object> document = new Yaml().load(response.body());
        assertThat(document.get("openapi")).isEqualTo("3.1.0");

        Set<String> documented = new HashSet<>();
        Map<String, Map<String, Object>> paths = (Map<String, Map<String, Object>>) document.get("paths");
        paths.forEach((path, operations) ->
                operations.keySet().forEach(method -> documented.add(method.toUpperCase(Locale.ROOT) + " " + path)));

        Set<String> mapped = new HashSet<>();
        for (RequestMappingInfo info : mappings.getHandlerMethods().keySet()) {
            if (!mappings.getHandlerMethods()
                    .get(info)
                    .getBeanType()
                    .getPackageName()
                    .startsWith("io.pagora")) {
                continue;
            }
            for (String pattern : info.getPatternValues()) {
                for (RequestMethod method : info.getMethodsCondition().getMethods()) {
                    mapped.add(method.name() + " " + pattern);
                }
            }
        }
        assertThat(documented).containsExactlyInAnyOrderElementsOf(mapped);

        Map<String, Object> problem = (Map<String, Object>)
                ((Map<String, Object>) ((Map<String, Object>) document.get("components")).get("schemas"))
                        .get("Problem");
        List<String> types = (List<String>)
                ((Map<String, Object>) ((Map<String, Object>) problem.get("properties")).get("type")).get("enum");
        List<String> answered = new java.util.ArrayList<>();
        java.util.Arrays.stream(RefusalReason.values())
                .forEach(type -> answered.add(type.uri().toString()));
        HttpProblems.ALL.forEach(type -> answered.add(type.uri().toString()));
        assertThat(types).containsExactlyInAnyOrderElementsOf(answered);
    }

    @Test
    void healthIsUpWithTheLedgerAndMetricsAreExposed() {
        Http operator = Http.as(TestCertificates.shared().operator(), port);
        Http.Response probe = Http.anonymous(port).get("/actuator/health");
        assertThat(probe.status()).as("%s", probe).isEqualTo(200);
        assertThat(probe.json().path("status").asString()).isEqualTo("UP");
        assertThat(probe.json().has("components"))
                .as("an anonymous probe sees the status only: %s", probe)
                .isFalse();
        Http.Response health = operator.get("/actuator/health");
        assertThat(health.json()
                        .path("components")
                        .path("ledger")
                        .path("status")
                        .asString())
                .isEqualTo("UP");
        assertThat(health.json().path("components").path("db").path("status").asString())
                .isEqualTo("UP");

        Http.Response asJson = Http.anonymous(port)
                .send(
                        "/actuator/health",
                        "GET",
                        java.net.http.HttpRequest.BodyPublishers.noBody(),
                        null,
                        "Accept",
                        "application/json");
        assertThat(asJson.status()).isEqualTo(200);

        Http.as(TestCertificates.shared().bank(1), port).post("/payments", "{}", "Idempotency-Key", "metrics");
        Http.Response prometheus = operator.get("/actuator/prometheus");
        assertThat(prometheus.status()).isEqualTo(200);
        assertThat(prometheus.body())
                .contains("pagora_payments_known_accounts")
                .contains("http_server_requests_seconds")
                .contains("hikaricp_connections");
        // The refused order above is counted with its problem type, and timed, on the single endpoint.
        assertThat(prometheus.body())
                .containsPattern("pagora_payments_rejections_total\\{[^}]*reason=\"missing-field\"[^}]*} 1\\.0")
                .containsPattern(
                        "pagora_payments_accept_seconds_count\\{[^}]*endpoint=\"single\"[^}]*result=\"rejected\"[^}]*} 1")
                .contains(
                        "pagora_payments_accept_seconds_bucket{",
                        "http_server_requests_seconds_bucket{",
                        "pagora_ledger_request_seconds_bucket{",
                        "application=\"payment-api\"");
    }
}
