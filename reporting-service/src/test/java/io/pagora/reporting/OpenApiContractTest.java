package io.pagora.reporting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pagora.reporting.testsupport.EventPublisher;
import io.pagora.reporting.testsupport.Payments;
import io.pagora.reporting.testsupport.Payments.Payment;
import io.pagora.reporting.testsupport.ReportingIntegrationTest;
import io.pagora.testing.Http;
import io.pagora.testing.TestCertificates;
import io.pagora.testing.fuzz.OpenApiDocument;
import io.pagora.testing.fuzz.OpenApiFuzz;
import io.pagora.testing.fuzz.OpenApiFuzz.Probe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Proves the served OpenAPI document is the API: it documents exactly the queries the application maps
 * (method and path), each with exactly the path and query parameters its handler reads.
 *
 * <p>And proves reporting-service never answers a malformed request with a 500, an undocumented status, an
 * error that is not RFC 9457 problem+json, or a stack trace: a schema-driven fuzz run of its OpenAPI
 * document (as served at {@code /openapi.yaml}) over every query — broken headers, query strings, path
 * parameters, bodies and methods — plus unknown paths, the OpenAPI document and the actuator endpoints,
 * against a read model holding settled payments (so the path values reach real rows), on real Kafka and
 * PostgreSQL, over mutual TLS twice sharing the budgets: as the operator (with the actuator probes) and as
 * the bank that holds the known account and pays the known payment (so its queries reach those rows), with a printed seed ({@code -Dpagora.fuzz.seed=…} replays a run), bounded in requests and time.
 */
class OpenApiContractTest extends ReportingIntegrationTest {

    /** The statement cursor is opaque (only a {@code next} the API gave is one): no schema bounds it. */
    static final Set<String> NOT_BOUNDABLE = Set.of("after");

    /** reporting takes no bodies; "oversized" bodies are sent past Tomcat's 2 MB form limit all the same. */
    static final int BODY_BYTES_MAX = 2 * 1024 * 1024;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @Test
    void documentMatchesTheMappedQueriesAndTheirParameters() {
        Http.Response served = bank(7).get("/openapi.yaml");
        assertThat(served.status()).isEqualTo(200);
        assertThat(served.contentType()).startsWith("application/yaml");
        JsonNode document =
                JsonMapper.builder().build().valueToTree(new Yaml().<Map<String, Object>>load(served.body()));
        Map<String, Set<String>> documented = new TreeMap<>();
        for (OpenApiDocument.Operation operation : new OpenApiDocument(document).operations()) {
            documented.put(
                    operation.key(),
                    operation.parameters().stream()
                            .map(parameter -> parameter.in() + ":" + parameter.name())
                            .collect(Collectors.toCollection(TreeSet::new)));
        }

        Map<String, Set<String>> mapped = new TreeMap<>();
        mappings.getHandlerMethods().forEach((info, handler) -> {
            if (!handler.getBeanType().getPackageName().startsWith("io.pagora")) {
                return;
            }
            Set<String> parameters = new TreeSet<>();
            for (MethodParameter parameter : handler.getMethodParameters()) {
                PathVariable path = parameter.getParameterAnnotation(PathVariable.class);
                RequestParam query = parameter.getParameterAnnotation(RequestParam.class);
                if (path != null) {
                    parameters.add("path:" + path.name());
                }
                if (query != null) {
                    parameters.add("query:" + query.name());
                }
            }
            for (String pattern : info.getPatternValues()) {
                for (RequestMethod method : info.getMethodsCondition().getMethods()) {
                    mapped.put(method.name() + " " + pattern, parameters);
                }
            }
        });
        assertThat(documented).isEqualTo(mapped);
    }

    @Test
    void everyMalformedRequestGetsADocumentedProblemNeverA500() {
        String account = Payments.customer(7);
        Payment settled = Payments.between(account, Payments.customer(8), 1_234);
        String endToEndId = Payments.endToEndId(7, settled.acceptedAt());
        try (EventPublisher publisher = new EventPublisher(bootstrapServers)) {
            publisher.publish(
                    settled.requested(endToEndId),
                    settled.settled(),
                    Payments.between(Payments.customer(8), account, 99).settled());
        }
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(bankOf(account)
                                .json("/accounts/" + account + "/statement")
                                .get("entries"))
                        .hasSize(2));
        Http.Response served = bank(7).get("/openapi.yaml");
        assertThat(served.status()).isEqualTo(200);
        JsonNode document =
                JsonMapper.builder().build().valueToTree(new Yaml().<Map<String, Object>>load(served.body()));

        List<Probe> probes = new ArrayList<>(Probe.actuator());
        probes.add(Probe.file("/openapi.yaml"));
        OpenApiFuzz.Config standard = OpenApiFuzz.Config.standard(
                port,
                BODY_BYTES_MAX,
                probes,
                Map.of(
                        "accountId",
                        account,
                        "paymentId",
                        settled.paymentId(),
                        "endToEndId",
                        endToEndId,
                        "ispb",
                        "00000007"));
        // Two runs sharing the standard budgets: as the operator (the actuator is its), and as bank 7, whose
        // queries reach the rows above (the operator reads no payment and no customer's statement). A bank is
        // answered 403 by the actuator whatever the method, so its run probes the API only: its systematic phase is
        // about half the operator's (920 requests to 1,634 before the end-to-end path), so it gets 2/5 of the budgets
        // and the operator 3/5.
        OpenApiFuzz.Config operator = new OpenApiFuzz.Config(
                        port,
                        standard.seed(),
                        standard.requestsMax() * 3 / 5,
                        standard.timeBudget().multipliedBy(3).dividedBy(5),
                        BODY_BYTES_MAX,
                        probes,
                        standard.knownValues(),
                        TestCertificates.shared().operator().sslContext())
                .notBoundable(NOT_BOUNDABLE);
        OpenApiFuzz.Report report =
                OpenApiFuzz.run(new OpenApiDocument(document), operator).published("reporting-service-operator");
        OpenApiFuzz.Report bankReport = OpenApiFuzz.run(
                        new OpenApiDocument(document),
                        new OpenApiFuzz.Config(
                                        port,
                                        standard.seed(),
                                        standard.requestsMax() * 2 / 5,
                                        standard.timeBudget().multipliedBy(2).dividedBy(5),
                                        BODY_BYTES_MAX,
                                        List.of(Probe.file("/openapi.yaml")),
                                        standard.knownValues(),
                                        TestCertificates.shared().bank(7).sslContext())
                                .notBoundable(NOT_BOUNDABLE))
                .published("reporting-service-bank");

        assertThat(report.findings()).as(report.summary()).isEmpty();
        assertThat(bankReport.findings()).as(bankReport.summary()).isEmpty();
        assertThat(report.requests() + bankReport.requests())
                .as("the runs were not cut short before they began")
                .isGreaterThan(1_000);
        assertThat(report.systematicComplete())
                .as("every class of input was sent (on a busy machine: -Dpagora.fuzz.seconds=…): " + report.summary())
                .isTrue();
        assertThat(bankReport.systematicComplete())
                .as("every class of input was sent (on a busy machine: -Dpagora.fuzz.seconds=…): "
                        + bankReport.summary())
                .isTrue();
    }
}
