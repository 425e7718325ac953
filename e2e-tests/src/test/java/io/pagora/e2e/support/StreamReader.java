package io.pagora.e2e.support;

import io.pagora.testing.Http;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * A participant's client of the switch written from docs/participants.md alone (not the simulator's code): opens a
 * stream, follows {@code PI-Pull-Next}, keeps every message by id (dropping duplicates as the page says), answers.
 */
public final class StreamReader {

    private final Http http;
    private final String ispb;
    private final Map<String, JsonNode> messages = new LinkedHashMap<>();
    private final List<String> duplicates = new ArrayList<>();
    private String next;
    private Http.Response last;

    public StreamReader(Http http, int ispb) {
        this.http = http;
        this.ispb = "%08d".formatted(ispb);
    }

    /** Opens the stream: the first pull. */
    public Http.Response start() {
        return keep(http.get("/participants/" + ispb + "/stream/start"));
    }

    /** The next pull (acknowledging the previous one's messages). */
    public Http.Response pull() {
        return keep(http.get(next));
    }

    /** The same pull again, as after an answer lost on the way. */
    public Http.Response repeat(String path) {
        return keep(http.get(path));
    }

    /** Closes the stream with its next pull's path, acknowledging the last pull. */
    public Http.Response close() {
        return http.send(next, "DELETE", HttpRequest.BodyPublishers.noBody(), null);
    }

    /** Pulls until a message matching {@code wanted} arrived for each of {@code count}, or {@code pullsMax} pulls. */
    public void pullUntil(Predicate<Map<String, JsonNode>> done, int pullsMax) {
        if (next == null) {
            start();
        }
        for (int i = 0; i < pullsMax && !done.test(messages); i++) {
            pull();
        }
        if (!done.test(messages)) {
            throw new AssertionError("stream of " + ispb + " did not deliver what was expected in " + pullsMax
                    + " pulls; got " + messages.keySet() + ", last " + last);
        }
    }

    public Http.Response answer(List<Map<String, Object>> answers) {
        return http.post("/participants/" + ispb + "/answers", Map.of("answers", answers));
    }

    public Http.Response answerOne(String paymentId, Map<String, Object> answer) {
        return http.send(
                "/participants/" + ispb + "/payments/" + paymentId + "/answer",
                "PUT",
                HttpRequest.BodyPublishers.ofString(Http.JSON.writeValueAsString(answer)),
                "application/json");
    }

    public Map<String, JsonNode> messages() {
        return messages;
    }

    public List<String> duplicates() {
        return duplicates;
    }

    public String nextPath() {
        return next;
    }

    /** Message ids of instructions for {@code paymentId}, outcomes of it, as the page names them. */
    public static String instructionId(String paymentId) {
        return "instruction-" + paymentId;
    }

    public static String outcomeId(String paymentId, String role) {
        return "outcome-" + paymentId + "-" + role;
    }

    private Http.Response keep(Http.Response response) {
        last = response;
        if (response.status() == 200 || response.status() == 204) {
            next = response.header("PI-Pull-Next");
        }
        if (response.status() == 200) {
            for (JsonNode message : response.json().path("messages")) {
                String id = message.path("id").asString();
                if (messages.putIfAbsent(id, message) != null) {
                    duplicates.add(id);
                }
            }
        }
        return response;
    }
}
