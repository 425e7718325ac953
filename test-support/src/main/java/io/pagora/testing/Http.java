package io.pagora.testing;

import io.pagora.kernel.tls.PemTls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import javax.net.ssl.SSLContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real HTTP client (java.net.http) against one running service, with JSON helpers: the tests see an API
 * as a client does. Every module's HTTP tests use this one.
 */
public final class Http {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient client;
    private final String base;

    /** A plain-HTTP client of {@code base} (a service without TLS, e.g. clearing's actuator). */
    public Http(String base) {
        this(base, null);
    }

    /** A client of {@code base} over TLS with {@code ssl} (its identity and trusted CA), or plain HTTP when null. */
    public Http(String base, SSLContext ssl) {
        HttpClient.Builder builder =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5));
        if (ssl != null) {
            builder.sslContext(ssl);
        }
        this.client = builder.build();
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    }

    /**
     * A caller of {@code https://127.0.0.1:<port>} (a Spring test's {@code @LocalServerPort}) presenting
     * {@code identity}, e.g. {@code TestCertificates.shared().bank(ispb)}.
     */
    public static Http as(TestCertificates.Identity identity, int port) {
        return new Http("https://127.0.0.1:" + port, identity.sslContext());
    }

    /** A caller over TLS without a client certificate: trusts the server, names nobody. */
    public static Http anonymous(int port) {
        return new Http(
                "https://127.0.0.1:" + port,
                PemTls.anonymous(TestCertificates.shared().ca()));
    }

    /** Closes this client's connections (waits for its calls in flight): the server sees them closed. */
    public void close() {
        client.close();
    }

    public String base() {
        return base;
    }

    public record Response(int status, String contentType, HttpHeaders headers, String body) {
        public JsonNode json() {
            return JSON.readTree(body);
        }

        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        /** The slug of a problem's type URI, e.g. {@code unknown-account}. */
        public String problemType() {
            return slug(json().path("type").asString());
        }

        @Override
        public String toString() {
            return status + " " + contentType + " " + body;
        }
    }

    public static String slug(String typeUri) {
        return typeUri.substring(typeUri.lastIndexOf('/') + 1);
    }

    /** POSTs {@code body} as JSON: a String is sent as it is (already JSON, or deliberately not), anything else is serialized. */
    public Response post(String path, Object body, String... headerPairs) {
        String json = body instanceof String text ? text : JSON.writeValueAsString(body);
        return send(path, "POST", HttpRequest.BodyPublishers.ofString(json), "application/json", headerPairs);
    }

    /** An answer read as bytes (an image), not text. */
    public record Bytes(int status, String contentType, byte[] body) {}

    /** A JSON POST whose answer is read as bytes, with {@code Accept: accept}. */
    public Bytes postForBytes(String path, Object body, String accept) {
        String json = body instanceof String text ? text : JSON.writeValueAsString(body);
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(REQUEST_TIMEOUT)
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .header("Content-Type", "application/json")
                .header("Accept", accept)
                .build();
        try {
            HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            return new Bytes(
                    response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Response postRaw(String path, byte[] body, String contentType, String... headerPairs) {
        return send(path, "POST", HttpRequest.BodyPublishers.ofByteArray(body), contentType, headerPairs);
    }

    public Response get(String path) {
        return send(path, "GET", HttpRequest.BodyPublishers.noBody(), null);
    }

    /** GET of an absolute URL (e.g. a Location header). */
    public Response getUrl(String url) {
        return send(HttpRequest.newBuilder(URI.create(url))
                .timeout(REQUEST_TIMEOUT)
                .GET()
                .build());
    }

    /** GET expecting 200 with JSON. */
    public JsonNode json(String path) {
        Response response = get(path);
        if (response.status() != 200) {
            throw new AssertionError("GET " + path + " answered " + response.status() + ": " + response.body());
        }
        return response.json();
    }

    /** Any request; an {@code Accept} is added unless {@code headerPairs} (name, value, name, value…) names one. */
    public Response send(
            String path, String method, HttpRequest.BodyPublisher body, String contentType, String... headerPairs) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(REQUEST_TIMEOUT)
                .method(method, body);
        if (!Arrays.asList(headerPairs).contains("Accept")) {
            request.header("Accept", "GET".equals(method) ? "*/*" : "application/json, application/problem+json");
        }
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        for (int i = 0; i < headerPairs.length; i += 2) {
            request.header(headerPairs[i], headerPairs[i + 1]);
        }
        return send(request.build());
    }

    private Response send(HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(
                    response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    response.headers(),
                    response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A payment request's body, as payment-api's {@code POST /payments} takes it. */
    public static Map<String, Object> payment(String payer, String payee, long amount) {
        return Map.of("payerAccountId", payer, "payeeAccountId", payee, "amountCentavos", amount);
    }
}
