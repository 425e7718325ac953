package io.pagora.testing.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.testing.Http;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Specifies what the fuzz run counts as a defect, and that the values it generates satisfy their schemas. */
class OpenApiFuzzRulesTest {

    private static final FuzzRequest GET =
            new FuzzRequest("GET /x", "", "GET", "/x", List.of(), null, Set.of(200, 400));
    private static final String PROBLEM =
            "{\"type\":\"https://pagora.io/problems/bad-request\",\"title\":\"Bad request\","
                    + "\"status\":400,\"detail\":\"no\"}";

    static final String DATE_TIME_ID = "^E[0-9]{8}[0-9]{4}(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])([01][0-9]|2[0-3])"
            + "[0-5][0-9][A-Za-z0-9]{11}$";

    @Test
    void aDocumentedProblemJsonAnswerIsNoDefect() {
        assertThat(OpenApiFuzz.violation(GET, response(400, "application/problem+json", PROBLEM)))
                .isNull();
        assertThat(OpenApiFuzz.violation(GET, response(200, "application/json", "{\"ok\":true}")))
                .isNull();
    }

    @Test
    void everyBrokenRuleIsADefect() {
        assertThat(OpenApiFuzz.violation(GET, response(500, "application/problem+json", PROBLEM.replace("400", "500"))))
                .startsWith("server error");
        assertThat(OpenApiFuzz.violation(GET, response(404, "application/problem+json", PROBLEM.replace("400", "404"))))
                .startsWith("status 404 not documented");
        assertThat(OpenApiFuzz.violation(GET, response(400, "text/html", "<html>Bad Request</html>")))
                .contains("not application/problem+json");
        assertThat(OpenApiFuzz.violation(
                        GET,
                        response(
                                400,
                                "application/problem+json",
                                PROBLEM.replace("https://pagora.io/problems/bad-request", "about:blank"))))
                .contains("Pagora problem type");
        assertThat(OpenApiFuzz.violation(
                        GET,
                        response(400, "application/problem+json", PROBLEM.replace("\"status\":400", "\"status\":422"))))
                .contains("does not match");
        assertThat(OpenApiFuzz.violation(
                        GET,
                        response(
                                200,
                                "application/json",
                                "{\"trace\":\"java.lang.IllegalStateException: x\\n\\tat io.pagora.X.y(X.java:12)\"}")))
                .contains("stack trace");
        assertThat(OpenApiFuzz.violation(GET, new RawHttp.Response(0, Map.of(), new byte[0], "reset")))
                .contains("no HTTP answer");
    }

    @Test
    void generatedStringsMatchTheirPatterns() {
        PatternSamples samples = new PatternSamples(new Random(1));
        for (String pattern :
                List.of("^[0-9a-fA-F]{32}$", "^[0-9]{1,8}$", "^[\\x21-\\x7E]+$", "^[0-9a-f]{30}00$", "^[0-9]{8}$")) {
            for (int i = 0; i < 50; i++) {
                String value = samples.matching(pattern);
                assertThat(value).as(pattern).matches(pattern);
            }
        }
    }

    @Test
    void groupsAndAlternativesGenerateMatchingValues() {
        PatternSamples samples = new PatternSamples(new Random(3));
        for (String pattern : List.of(
                DATE_TIME_ID,
                "^(ab|c[0-9]{2})+x$",
                "^((a|b)c|d)?e$",
                "^[^\\x00-\\x1F\\x7F-\\x9F]*[^ \\x00-\\x1F\\u2000-\\u200A][^\\x00-\\x1F]*$")) {
            for (int i = 0; i < 200; i++) {
                String value = samples.matching(pattern);
                assertThat(value).as(pattern).matches(pattern);
            }
            assertThat(PatternSamples.lowest(pattern)).as(pattern).matches(pattern);
            assertThat(PatternSamples.highest(pattern)).as(pattern).matches(pattern);
        }
    }

    @Test
    void theBoundaryValuesOfAnIdAreAllZerosAndAllFs() {
        assertThat(PatternSamples.lowest("^[0-9a-f]{30}00$")).isEqualTo("0".repeat(32));
        assertThat(PatternSamples.highest("^[0-9a-f]{30}00$")).isEqualTo("f".repeat(30) + "00");
        assertThat(PatternSamples.highest("^[0-9a-fA-F]{32}$")).isEqualTo("F".repeat(32));
        assertThat(PatternSamples.lowest(DATE_TIME_ID))
                .isEqualTo("E" + "0".repeat(8) + "000001010000" + "A".repeat(11));
    }

    @Test
    void theAdmittedValuesAreTheBoundariesLessWhatNotExcludes() {
        JsonNode id = Http.JSON.readTree("{\"type\":\"string\",\"pattern\":\"^[0-9a-f]{30}00$\","
                + "\"not\":{\"const\":\"" + "0".repeat(32) + "\"}}");
        JsonNode amount = Http.JSON.readTree("{\"type\":\"integer\",\"minimum\":1,\"maximum\":100}");
        JsonNode text = Http.JSON.readTree("{\"type\":\"string\",\"maxLength\":5}");

        assertThat(SchemaSamples.admitted(id)).extracting(JsonNode::asString).containsExactly("f".repeat(30) + "00");
        assertThat(SchemaSamples.admitted(amount)).extracting(JsonNode::asLong).containsExactly(1L, 100L);
        assertThat(SchemaSamples.admitted(text)).extracting(JsonNode::asString).containsExactly("aaaaa");
        for (int seed = 0; seed < 50; seed++) {
            assertThat(new SchemaSamples(new Random(seed), Map.of()).string(id)).isNotEqualTo("0".repeat(32));
        }
    }

    @Test
    void theSameSeedGeneratesTheSameValues() {
        assertThat(new PatternSamples(new Random(7)).matching("^[\\x21-\\x7E]{20}$"))
                .isEqualTo(new PatternSamples(new Random(7)).matching("^[\\x21-\\x7E]{20}$"));
    }

    private static RawHttp.Response response(int status, String contentType, String body) {
        return new RawHttp.Response(
                status, Map.of("content-type", contentType), body.getBytes(StandardCharsets.UTF_8), null);
    }
}
