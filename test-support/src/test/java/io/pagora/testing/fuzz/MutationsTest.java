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
 * does not (issue 16, item 9: a multipart Content-Type without its boundary, and UTF-8 text in a header, whose bytes
 * 0x80-0x9F are C1 controls read as ISO-8859-1, each answered 500 while 5,000 generated requests found neither).
 */
class MutationsTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Operation POST = new Operation("POST", "/payments",
            List.of(new Parameter("Idempotency-Key", "header", true, NODES.objectNode().put("type", "string"))),
            NODES.objectNode().put("type", "object"), Set.of(201, 400));
    private static final Operation GET = new Operation("GET", "/openapi.yaml", List.of(), null, Set.of(200, 400));

    @Test
    void mediaTypesWithParametersAndMissingOnesGoToEveryOperationWithAndWithoutBody() {
        for (Operation operation : List.of(POST, GET)) {
            List<FuzzRequest> sent = headerMutations(operation);

            for (String contentType : List.of("multipart/form-data", "application/json;charset=bogus", "text/plain", "")) {
                assertThat(sent).as(operation.key() + " with Content-Type \"" + contentType + "\"")
                        .anyMatch(request -> values(request, "Content-Type").equals(List.of(contentType)));
            }
            assertThat(sent).as(operation.key() + " without Content-Type").anyMatch(request -> !request.hasHeader("Content-Type"));
            assertThat(sent).as(operation.key() + " with an empty Accept")
                    .anyMatch(request -> values(request, "Accept").equals(List.of("")));
        }
    }

    @Test
    void everyHeaderTheApiReadsGetsValuesOutsideAscii() {
        for (Operation operation : List.of(POST, GET)) {
            List<FuzzRequest> sent = headerMutations(operation);
            List<String> read = operation == POST ? List.of("Idempotency-Key", "Accept", "Content-Type", "Origin",
                    "If-None-Match") : List.of("Accept", "Content-Type", "Origin", "If-None-Match");

            for (String header : read) {
                assertThat(sent).as(operation.key() + ": " + header + " with a C1 control byte (UTF-8 text)")
                        .anyMatch(request -> values(request, header).stream().anyMatch(hasByte(0x80, 0x9f)));
                assertThat(sent).as(operation.key() + ": " + header + " with ISO-8859-1 text")
                        .anyMatch(request -> values(request, header).stream().anyMatch(hasByte(0xa0, 0xff)
                                .and(hasByte(0x80, 0x9f).negate())));
            }
        }
    }

    @Test
    void theHeadersTheFrameworkReadsGetAsciiValuesItsParsersMayTripOn() {
        for (Operation operation : List.of(POST, GET)) {
            List<FuzzRequest> sent = headerMutations(operation);

            for (Map.Entry<String, String> header : List.of(Map.entry("Range", "bytes=99999999-"),
                    Map.entry("If-Modified-Since", "garbage"), Map.entry("Origin", "null"))) {
                assertThat(sent).as(operation.key() + " with " + header)
                        .anyMatch(request -> values(request, header.getKey()).equals(List.of(header.getValue())));
            }
        }
    }

    private static List<FuzzRequest> headerMutations(Operation operation) {
        FuzzRequest valid = new FuzzRequest(operation.key(), "", operation.method(), operation.path(),
                operation == POST ? List.of(Map.entry("Accept", "*/*"), Map.entry("Idempotency-Key", "k1"),
                        Map.entry("Content-Type", "application/json")) : List.of(Map.entry("Accept", "*/*")),
                operation == POST ? "{}".getBytes() : null, operation.statuses());
        return Mutations.headers(operation, valid).stream().map(mutation -> mutation.applyTo(valid)).toList();
    }

    private static List<String> values(FuzzRequest request, String name) {
        return request.headers().stream().filter(header -> header.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue).toList();
    }

    private static Predicate<String> hasByte(int from, int to) {
        return value -> value.chars().anyMatch(c -> c >= from && c <= to);
    }
}
