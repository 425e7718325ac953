package io.pagora.simulator;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * One bank's HTTPS client of the switch, as docs/participants.md describes the protocol: pull the stream, follow
 * {@code PI-Pull-Next}, post answers in batches. Mutual TLS with the bank's own certificate. Every call has a deadline.
 */
final class SwitchClient {

    /** What a pull returned: its messages and where the next pull is. */
    record Pulled(int status, List<Message> messages, String next) {}

    /**
     * A message as this bank reads it: the fields it acts on, as text (docs/participants.md: ignore unknown fields).
     * A bank keeps its own model of the protocol; decoding every field into the switch's typed records (instants
     * parsed, subtypes resolved) was half the simulator's CPU (issue 18).
     */
    record Message(String type, String id, String paymentId, String role, String status, String acceptedAt) {

        static final String INSTRUCTION = "PaymentInstruction";
        static final String CONCLUDED = "PaymentConcluded";
    }

    private record Messages(List<Message> messages) {}

    private static final JsonMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    private final HttpClient http;
    private final URI base;
    private final String ispb;
    private final Duration timeout;

    SwitchClient(URI base, String ispb, SSLContext tls, Duration timeout) {
        this.base = base;
        this.ispb = ispb;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().sslContext(tls).version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    Pulled start() throws IOException, InterruptedException {
        return pull("/participants/" + ispb + "/stream/start");
    }

    Pulled pull(String path) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(timeout).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        String next = response.headers().firstValue("PI-Pull-Next").orElse(null);
        return switch (response.statusCode()) {
            case 200 -> new Pulled(200, messagesOf(response.body()), next);
            case 204 -> new Pulled(204, List.of(), next);
            default -> new Pulled(response.statusCode(), List.of(), null);
        };
    }

    static List<Message> messagesOf(byte[] body) {
        Messages messages = JSON.readValue(body, Messages.class);
        return messages == null || messages.messages() == null ? List.of() : messages.messages();
    }

    void close(String path) throws IOException, InterruptedException {
        http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(timeout).DELETE().build(),
                HttpResponse.BodyHandlers.discarding());
    }

    /** Posts a batch of answers (JSON built by the caller); returns the status and body. */
    HttpResponse<String> answer(String json) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(base.resolve("/participants/" + ispb + "/answers")).timeout(timeout)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
