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

/**
 * One bank's HTTPS client of the switch, as docs/participants.md describes the protocol: pull the stream, follow
 * {@code PI-Pull-Next}, post answers in batches. Mutual TLS with the bank's own certificate. Every call has a deadline.
 *
 * <p>The switch may have several payment-api instances (the scaled platform's two): the bank uses one, and when a call to
 * it fails on the way (refused, reset, timed out) moves to the next for every later call. Its stream's token belongs
 * to the instance that issued it, so the reader then starts a new stream there: what was not acknowledged comes again
 * (and is dropped by id), nothing is lost (docs/participants.md).
 */
final class SwitchClient {

    /** What a pull returned: its messages and where the next pull is. */
    record Pulled(int status, List<Message> messages, String next) {}

    /**
     * A message as this bank reads it: the fields it acts on, as text (docs/participants.md: ignore unknown fields).
     * A bank keeps its own model of the protocol, and text is cheaper to read than the switch's typed records
     * (instants parsed, subtypes resolved), which the simulator would only print back.
     */
    record Message(
            String type,
            String id,
            String paymentId,
            String role,
            String status,
            String acceptedAt,
            long amountCentavos,
            String originalPaymentId,
            String reportId,
            String returnReason) {

        static final String INSTRUCTION = "PaymentInstruction";
        static final String CONCLUDED = "PaymentConcluded";
        static final String REPORT = "InfractionReportNotice";
        static final String HOLD = "CautionaryHold";
        static final String LIQUIDITY = "LiquidityAlert";
    }

    private final HttpClient http;
    private final List<URI> bases;
    private final java.util.concurrent.atomic.AtomicInteger current;
    private final String ispb;
    private final Duration timeout;

    SwitchClient(URI base, String ispb, SSLContext tls, Duration timeout) {
        this(List.of(base), 0, ispb, tls, timeout);
    }

    /** @param preferred the instance this bank starts on (banks spread over the instances) */
    SwitchClient(List<URI> bases, int preferred, String ispb, SSLContext tls, Duration timeout) {
        if (bases.isEmpty() || bases.size() > 16) {
            throw new IllegalArgumentException("1..16 switch instances: " + bases);
        }
        this.bases = List.copyOf(bases);
        this.current = new java.util.concurrent.atomic.AtomicInteger(Math.floorMod(preferred, bases.size()));
        this.ispb = ispb;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder()
                .sslContext(tls)
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    Pulled start() throws IOException, InterruptedException {
        return pull("/participants/" + ispb + "/stream/start");
    }

    Pulled pull(String path) throws IOException, InterruptedException {
        int used = current.get();
        HttpResponse<byte[]> response = send(
                used,
                HttpRequest.newBuilder(bases.get(used).resolve(path))
                        .timeout(timeout)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        String next = response.headers().firstValue("PI-Pull-Next").orElse(null);
        return switch (response.statusCode()) {
            case 200 -> new Pulled(200, ProtocolJson.messages(response.body()), next);
            case 204 -> new Pulled(204, List.of(), next);
            default -> new Pulled(response.statusCode(), List.of(), null);
        };
    }

    void close(String path) throws IOException, InterruptedException {
        int used = current.get();
        send(
                used,
                HttpRequest.newBuilder(bases.get(used).resolve(path))
                        .timeout(timeout)
                        .DELETE()
                        .build(),
                HttpResponse.BodyHandlers.discarding());
    }

    /** Posts a batch of answers ({@link ProtocolJson#answers}); returns the status and body. */
    HttpResponse<String> answer(String json) throws IOException, InterruptedException {
        int used = current.get();
        return send(
                used,
                HttpRequest.newBuilder(bases.get(used).resolve("/participants/" + ispb + "/answers"))
                        .timeout(timeout)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Asks to return (all or part of) a payment this bank received; returns the status. */
    int returnPayment(String paymentId, String key, String json) throws IOException, InterruptedException {
        return post("/payments/" + paymentId + "/returns", key, json);
    }

    /** Files an infraction report on a payment this bank's customer made (docs/med.md); returns the status. */
    int fileReport(String key, String json) throws IOException, InterruptedException {
        return post("/infraction-reports", key, json);
    }

    /** Accepts or rejects a report on a payment to this bank's customer; returns the status. */
    int analyse(String reportId, String json) throws IOException, InterruptedException {
        return post("/infraction-reports/" + reportId + "/analysis", null, json);
    }

    /** Asks for the refund of an accepted report, all it holds: the status code. */
    int refund(String reportId) throws IOException, InterruptedException {
        return post("/infraction-reports/" + reportId + "/refund", null, "{}");
    }

    private int post(String path, String key, String json) throws IOException, InterruptedException {
        int used = current.get();
        HttpRequest.Builder request = HttpRequest.newBuilder(bases.get(used).resolve(path))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return send(used, request.build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    /**
     * A call that failed on the way moves the bank to the next instance; calls failing together on the same instance
     * move it once (the first to fail wins the compare-and-set).
     */
    private <T> HttpResponse<T> send(int used, HttpRequest request, HttpResponse.BodyHandler<T> body)
            throws IOException, InterruptedException {
        try {
            return http.send(request, body);
        } catch (IOException failed) {
            current.compareAndSet(used, (used + 1) % bases.size());
            throw failed;
        }
    }
}
