package io.pagora.payments.api.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A real HTTP client (java.net.http) against a running payment-api, with JSON helpers. */
public final class Http {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    public Http(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    public record Response(int status, String contentType, java.net.http.HttpHeaders headers, String body) {
        public JsonNode json() {
            return JSON.readTree(body);
        }

        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        /** The slug of a problem's type URI, e.g. {@code unknown-account}. */
        public String problemType() {
            String type = json().path("type").asString();
            return type.substring(type.lastIndexOf('/') + 1);
        }

        @Override
        public String toString() {
            return status + " " + contentType + " " + body;
        }
    }

    public Response post(String path, Object body, String... headerPairs) {
        String json = body instanceof String text ? text : JSON.writeValueAsString(body);
        return send(path, "POST", HttpRequest.BodyPublishers.ofString(json), "application/json", headerPairs);
    }

    public Response postRaw(String path, byte[] body, String contentType, String... headerPairs) {
        return send(path, "POST", HttpRequest.BodyPublishers.ofByteArray(body), contentType, headerPairs);
    }

    public Response get(String path) {
        return send(path, "GET", HttpRequest.BodyPublishers.noBody(), null);
    }

    public Response send(String path, String method, HttpRequest.BodyPublisher body, String contentType,
            String... headerPairs) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, body);
        if (!java.util.Arrays.asList(headerPairs).contains("Accept")) {
            request.header("Accept", "GET".equals(method) ? "*/*" : "application/json, application/problem+json");
        }
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        for (int i = 0; i < headerPairs.length; i += 2) {
            request.header(headerPairs[i], headerPairs[i + 1]);
        }
        try {
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static Map<String, Object> payment(String payer, String payee, long amount) {
        return Map.of("payerAccountId", payer, "payeeAccountId", payee, "amountCentavos", amount);
    }
}
