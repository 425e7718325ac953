package io.pagora.testing.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.testing.fuzz.OpenApiDocument.Operation;
import io.pagora.testing.fuzz.OpenApiDocument.Parameter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Specifies the classes of input the generator sends to every operation, so that an outside fuzzer finds none it
 * does not: among them a multipart Content-Type without its boundary, and UTF-8 text in a header (whose bytes
 * 0x80-0x9F are C1 controls when read as ISO-8859-1), which random requests rarely hit.
 */
class MutationsTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Operation POST = new Operation(
            "POST",
            "/payments",
            List.of(new Parameter(
                    "Idempotency-Key", "header", true, NODES.objectNode().put("type", "string"))),
            NODES.objectNode().put("type", "object"),
            Set.of(201, 400));
    private static final Operation GET = new Operation("GET", "/openapi.yaml", List.of(), null, Set.of(200, 400));

    @Test
    void mediaTypesWithParametersAndMissingOnesGoToEveryOperationWithAndWithoutBody() {
        for (Operation operation : List.of(POST, GET)) {
            List<FuzzRequest> sent = headerMutations(operation);

            for (String contentType :
                    List.of("multipart/form-data", "application/json;charset=bogus", "text/plain", "")) {
                assertThat(sent)
                        .as(operation.key() + " with Content-Type \"" + contentType + "\"")
                        .anyMatch(request -> values(request, "Content-Type").equals(List.of(contentType)));
            }
            assertThat(sent)
                    .as(operation.key() + " without Content-Type")
                    .anyMatch(request -> !request.hasHeader("Content-Type"));
            assertThat(sent)
                    .as(operation.key() + " with an empty Accept")
                    .anyMatch(request -> values(request, "Accept").equals(List.of("")));
        }
    }

    @Test
    void everyHeaderTheApiReadsGetsValuesOutsideAscii() {
        for (Operation operation : List.of(POST, GET)) {
            List<FuzzRequest> sent = headerMutations(operation);
            List<String> read = operation == POST
                    ? List.of("Idempotency-Key", "Accept", "Content-Type", "Origin", "If-None-Match")
                    : List.of("Accept", "Content-Type", "Origin", "If-None-Match");

            for (String header : read) {
                assertThat(sent)
                        .as(operation.key() + ": " + header + " with a C1 control byte (UTF-8 text)")
                        .anyMatch(request -> values(request, header).stream().anyMatch(hasByte(0x80, 0x9f)));
                assertThat(sent)
                        .as(operation.key() + ": " + header + " with ISO-8859-1 text")
                        .anyMatch(request -> values(request, header).stream()
                                .anyMatch(hasByte(0xa0, 0xff)
                                        .and(hasByte(0x80, 0x9f).negate())));
            }
        }
    }

    @Test
    void theHeadersTheFrameworkReadsGetAsciiValuesItsParsersMayTripOn() {
        for (Operation operation : List.of(POST, GET)) {
            List<FuzzRequest> sent = headerMutations(operation);

            for (Map.Entry<String, String> header : List.of(
                    Map.entry("Range", "bytes=99999999-"),
                    Map.entry("If-Modified-Since", "garbage"),
                    Map.entry("Origin", "null"))) {
                assertThat(sent)
                        .as(operation.key() + " with " + header)
                        .anyMatch(request -> values(request, header.getKey()).equals(List.of(header.getValue())));
            }
        }
    }

    @Test
    void idsOfAllZerosAndAllFsGoToEveryPathParameterAndBodyField() {
        Operation returns = new Operation(
                "POST",
                "/payments/{paymentId}/returns",
                List.of(new Parameter(
                        "paymentId", "path", true, NODES.objectNode().put("type", "string"))),
                NODES.objectNode()
                        .put("type", "object")
                        .set(
                                "properties",
                                NODES.objectNode()
                                        .set("returnId", NODES.objectNode().put("type", "string"))),
                Set.of(202, 400, 404));
        FuzzRequest valid = new FuzzRequest(
                returns.key(),
                "",
                "POST",
                "/payments/" + "1".repeat(30) + "00/returns",
                List.of(Map.entry("Accept", "*/*")),
                "{\"returnId\":\"x\"}".getBytes(),
                returns.statuses());

        List<FuzzRequest> sent = Mutations.edgeIds(returns, Map.of("paymentId", "1".repeat(30) + "00")).stream()
                .map(mutation -> mutation.applyTo(valid))
                .toList();

        for (String id : List.of("0".repeat(32), "f".repeat(32), "f".repeat(30) + "00")) {
            assertThat(sent)
                    .as("path " + id)
                    .anyMatch(request -> request.target().equals("/payments/" + id + "/returns"));
            assertThat(sent)
                    .as("body " + id)
                    .anyMatch(request -> new String(request.body()).contains("\"" + id + "\""));
        }
    }

    @Test
    void theBoundaryValuesASchemaAdmitsMayNotBeAnswered400() {
        Operation get = new Operation(
                "GET",
                "/payments/{paymentId}",
                List.of(new Parameter(
                        "paymentId",
                        "path",
                        true,
                        NODES.objectNode().put("type", "string").put("pattern", "^[0-9a-f]{30}00$"))),
                null,
                Set.of(200, 400, 404));
        FuzzRequest valid = new FuzzRequest(
                get.key(),
                "",
                "GET",
                "/payments/" + "1".repeat(30) + "00",
                List.of(Map.entry("Accept", "*/*")),
                null,
                get.statuses());

        List<FuzzRequest> sent = Mutations.admitted(get, Map.of("paymentId", "1".repeat(30) + "00"), Set.of()).stream()
                .map(mutation -> mutation.applyTo(valid))
                .toList();

        assertThat(sent)
                .extracting(FuzzRequest::target)
                .containsExactly("/payments/" + "0".repeat(32), "/payments/" + "f".repeat(30) + "00");
        assertThat(sent)
                .allSatisfy(request -> assertThat(request.allowedStatuses()).containsExactlyInAnyOrder(200, 404));
        assertThat(Mutations.admitted(get, Map.of(), Set.of("paymentId")))
                .as("a known value is the test's")
                .isEmpty();
    }

    private static List<FuzzRequest> headerMutations(Operation operation) {
        FuzzRequest valid = new FuzzRequest(
                operation.key(),
                "",
                operation.method(),
                operation.path(),
                operation == POST
                        ? List.of(
                                Map.entry("Accept", "*/*"),
                                Map.entry("Idempotency-Key", "k1"),
                                Map.entry("Content-Type", "application/json"))
                        : List.of(Map.entry("Accept", "*/*")),
                operation == POST ? "{}".getBytes() : null,
                operation.statuses());
        return Mutations.headers(operation, valid).stream()
                .map(mutation -> mutation.applyTo(valid))
                .toList();
    }

    private static List<String> values(FuzzRequest request, String name) {
        return request.headers().stream()
                .filter(header -> header.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue)
                .toList();
    }

    private static Predicate<String> hasByte(int from, int to) {
        return value -> value.chars().anyMatch(c -> c >= from && c <= to);
    }
}
