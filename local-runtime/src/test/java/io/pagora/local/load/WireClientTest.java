package io.pagora.local.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.pagora.kernel.tls.PemTls;
import io.pagora.testing.TestCertificates;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bench's own HTTP/1.1 client, against a real HTTPS server with mutual TLS (the JDK's): it keeps a bank's calls
 * within its connections, reads what payment-api answers (sized or chunked bodies, Retry-After, Connection: close),
 * and fails a call rather than ever pairing it with another call's answer.
 */
class WireClientTest {

    private static final TestCertificates AUTHORITY = TestCertificates.shared();
    private static final long DEADLINE_NANOS = Duration.ofSeconds(10).toNanos();

    private final ExecutorService handlers = Executors.newCachedThreadPool();
    private HttpsServer server;
    private final AtomicInteger connectionsSeen = new AtomicInteger();

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
        handlers.shutdownNow();
    }

    @Test
    void aBanksCallsOnTheWireStayWithinItsConnectionsAndTheRestWaitTheirTurn() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger inHandler = new AtomicInteger();
        AtomicInteger inHandlerMax = new AtomicInteger();
        List<String> keys = java.util.Collections.synchronizedList(new ArrayList<>());
        URI uri = start(exchange -> {
            inHandlerMax.accumulateAndGet(inHandler.incrementAndGet(), Math::max);
            keys.add(exchange.getRequestHeaders().getFirst("Idempotency-Key"));
            await(release);
            inHandler.decrementAndGet();
            answer(
                    exchange,
                    202,
                    "{\"paymentId\":\"" + exchange.getRequestHeaders().getFirst("Idempotency-Key") + "\"}");
        });
        try (WireClient client = new WireClient(AUTHORITY.bank(10_001_111).sslContext(), uri, 2, 16)) {
            List<CompletableFuture<WireClient.Answer>> answers = new ArrayList<>();
            for (int call = 0; call < 5; call++) {
                answers.add(client.post(
                        "{}".getBytes(StandardCharsets.US_ASCII), "key-" + call, System.nanoTime() + DEADLINE_NANOS));
            }
            waitUntil(() -> keys.size() == 2);
            Thread.sleep(200); // room for a third call to reach the server, were it let through
            assertThat(keys).as("calls on the wire while none is answered").containsExactlyInAnyOrder("key-0", "key-1");

            release.countDown();
            for (int call = 0; call < 5; call++) {
                WireClient.Answer answer = answers.get(call).get(10, TimeUnit.SECONDS);
                assertThat(answer.status()).isEqualTo(202);
                assertThat(answer.body()).as("each call gets its own answer").contains("key-" + call);
            }
            assertThat(inHandlerMax.get()).isEqualTo(2);
            assertThat(connectionsSeen.get())
                    .as("connections opened: kept alive and reused")
                    .isEqualTo(2);
            assertThat(client.openConnections()).isEqualTo(2);
        }
    }

    @Test
    void aRefusalIsReadWithItsRetryAfterFromAChunkedBody() throws Exception {
        URI uri = start(exchange -> {
            exchange.getResponseHeaders().add("Retry-After", "1");
            exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
            exchange.sendResponseHeaders(429, 0); // 0: the JDK server sends the body chunked
            exchange.getResponseBody()
                    .write("{\"type\":\"https://pagora.io/problems/participant-rate-limited\"}"
                            .getBytes(StandardCharsets.US_ASCII));
            exchange.close();
        });
        try (WireClient client = new WireClient(AUTHORITY.bank(10_001_111).sslContext(), uri, 1, 4)) {
            WireClient.Answer answer = client.post(
                            "{}".getBytes(StandardCharsets.US_ASCII), "k", System.nanoTime() + DEADLINE_NANOS)
                    .get(10, TimeUnit.SECONDS);
            assertThat(answer)
                    .isEqualTo(new WireClient.Answer(
                            429, true, "{\"type\":\"https://pagora.io/problems/participant-rate-limited\"}"));
            assertThat(LoadGenerator.answerClass(answer, null)).isEqualTo("429 with Retry-After");
        }
    }

    @Test
    void aLateAnswerFailsItsCallAndIsNeverReadAsTheNextCallsAnswer() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<String> keys = java.util.Collections.synchronizedList(new ArrayList<>());
        URI uri = start(exchange -> {
            String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
            keys.add(key);
            if (key.equals("slow")) {
                await(release);
            }
            answer(exchange, 202, key);
        });
        try (WireClient client = new WireClient(AUTHORITY.bank(10_001_111).sslContext(), uri, 1, 4)) {
            assertThat(client.post(new byte[0], "first", System.nanoTime() + DEADLINE_NANOS)
                            .get(10, TimeUnit.SECONDS)
                            .body())
                    .as("a first call opens the connection, so the slow one's deadline is all the server's")
                    .isEqualTo("first");
            CompletableFuture<WireClient.Answer> slow = client.post(
                    new byte[0],
                    "slow",
                    System.nanoTime() + Duration.ofMillis(300).toNanos());
            assertThatThrownBy(() -> slow.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(SocketTimeoutException.class);
            assertThat(keys).as("the slow call reached the server").contains("slow");
            assertThat(LoadGenerator.answerClass(
                            null, slow.handle((answer, failure) -> failure).get()))
                    .isEqualTo("no answer: SocketTimeoutException");
            assertThat(client.openConnections())
                    .as("the late answer's connection is closed")
                    .isZero();
            release.countDown();

            WireClient.Answer next = client.post(new byte[0], "next", System.nanoTime() + DEADLINE_NANOS)
                    .get(10, TimeUnit.SECONDS);
            assertThat(next.body())
                    .as("the late answer is never read as the next call's")
                    .isEqualTo("next");
            assertThat(connectionsSeen.get()).isEqualTo(2);
        }
    }

    @Test
    void aCallWhoseDeadlinePassesWhileItWaitsForAConnectionFailsUnsent() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<String> keys = java.util.Collections.synchronizedList(new ArrayList<>());
        URI uri = start(exchange -> {
            keys.add(exchange.getRequestHeaders().getFirst("Idempotency-Key"));
            await(release);
            answer(exchange, 202, "ok");
        });
        try (WireClient client = new WireClient(AUTHORITY.bank(10_001_111).sslContext(), uri, 1, 4)) {
            CompletableFuture<WireClient.Answer> first =
                    client.post(new byte[0], "first", System.nanoTime() + DEADLINE_NANOS);
            CompletableFuture<WireClient.Answer> behind = client.post(
                    new byte[0],
                    "behind",
                    System.nanoTime() + Duration.ofMillis(200).toNanos());
            waitUntil(() -> keys.size() == 1);
            Thread.sleep(400); // time passes: the call behind is past its 200 ms deadline before it could be sent
            release.countDown();
            assertThat(first.get(10, TimeUnit.SECONDS).status()).isEqualTo(202);
            assertThatThrownBy(() -> behind.get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(HttpTimeoutException.class)
                    .hasMessageContaining("not sent");
            assertThat(keys).as("what the server received").containsExactly("first");

            assertThat(client.post(new byte[0], "after", System.nanoTime() + DEADLINE_NANOS)
                            .get(10, TimeUnit.SECONDS)
                            .status())
                    .isEqualTo(202);
            assertThat(connectionsSeen.get())
                    .as("nothing was sent, so the connection was kept, not handshaken anew")
                    .isEqualTo(1);
        }
    }

    @Test
    void moreCallsThanMayWaitAreRefusedAtOnce() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        URI uri = startAnsweringOnRelease(release);
        try (WireClient client = new WireClient(AUTHORITY.bank(10_001_111).sslContext(), uri, 1, 1)) {
            client.post(new byte[0], "on-the-wire", System.nanoTime() + DEADLINE_NANOS);
            waitUntil(() -> client.openConnections() == 1);
            CompletableFuture<WireClient.Answer> waiting =
                    client.post(new byte[0], "waiting", System.nanoTime() + DEADLINE_NANOS);
            CompletableFuture<WireClient.Answer> refused =
                    client.post(new byte[0], "one-too-many", System.nanoTime() + DEADLINE_NANOS);
            assertThatThrownBy(() -> refused.getNow(null))
                    .hasCauseInstanceOf(RejectedExecutionException.class)
                    .hasMessageContaining("calls waiting for a connection");
            release.countDown();
            assertThat(waiting.get(10, TimeUnit.SECONDS).status())
                    .as("the call that found room is answered")
                    .isEqualTo(202);
        }
    }

    @Test
    void aServerThatClosesAfterItsAnswerGetsAFreshConnectionForTheNextCall() throws Exception {
        URI uri = start(exchange -> {
            exchange.getResponseHeaders().add("Connection", "close");
            answer(exchange, 202, "ok");
        });
        try (WireClient client = new WireClient(AUTHORITY.bank(10_001_111).sslContext(), uri, 1, 4)) {
            for (int call = 0; call < 3; call++) {
                assertThat(client.post(new byte[0], "k" + call, System.nanoTime() + DEADLINE_NANOS)
                                .get(10, TimeUnit.SECONDS)
                                .status())
                        .isEqualTo(202);
            }
            assertThat(connectionsSeen.get()).isEqualTo(3);
        }
    }

    @Test
    void aConnectionIdleLongerThanItsServerMightKeepItIsNotReused() throws Exception {
        URI uri = start(exchange -> answer(exchange, 202, "ok"));
        try (WireClient client =
                new WireClient(AUTHORITY.bank(10_001_111).sslContext(), uri, 1, 4, Duration.ofMillis(100))) {
            client.post(new byte[0], "a", System.nanoTime() + DEADLINE_NANOS).get(10, TimeUnit.SECONDS);
            client.post(new byte[0], "b", System.nanoTime() + DEADLINE_NANOS).get(10, TimeUnit.SECONDS);
            assertThat(connectionsSeen.get()).as("back to back: one connection").isEqualTo(1);
            Thread.sleep(300); // time passes: the connection idles past its 100 ms bound
            client.post(new byte[0], "c", System.nanoTime() + DEADLINE_NANOS).get(10, TimeUnit.SECONDS);
            assertThat(connectionsSeen.get())
                    .as("after idling past the bound: a new one")
                    .isEqualTo(2);
            assertThat(client.openConnections()).isEqualTo(1);
        }
    }

    @Test
    void anAnswerThatTricklesInPastItsDeadlineFailsTheCallThoughEachReadIsOnTime() throws Exception {
        URI uri = start(exchange -> {
            exchange.sendResponseHeaders(202, 0);
            for (int piece = 0; piece < 20; piece++) {
                exchange.getResponseBody().write('x');
                exchange.getResponseBody().flush();
                sleep(100);
            }
        });
        try (WireClient client = new WireClient(AUTHORITY.bank(10_001_111).sslContext(), uri, 1, 4)) {
            client.post(
                            new byte[0],
                            "warm",
                            System.nanoTime() + Duration.ofSeconds(30).toNanos())
                    .get(10, TimeUnit.SECONDS);
            long started = System.nanoTime();
            CompletableFuture<WireClient.Answer> trickled = client.post(
                    new byte[0], "k", started + Duration.ofMillis(500).toNanos());
            assertThatThrownBy(() -> trickled.get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(SocketTimeoutException.class)
                    .hasMessageContaining("within its deadline");
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("ended near its deadline, not after 2 s of pieces")
                    .isLessThan(Duration.ofMillis(1500));
        }
    }

    @Test
    void closingFailsTheCallsStillWaitingAndRefusesNewOnes() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        URI uri = startAnsweringOnRelease(release);
        WireClient client = new WireClient(AUTHORITY.bank(10_001_111).sslContext(), uri, 1, 4);
        CompletableFuture<WireClient.Answer> onTheWire =
                client.post(new byte[0], "a", System.nanoTime() + DEADLINE_NANOS);
        waitUntil(() -> client.openConnections() == 1);
        CompletableFuture<WireClient.Answer> waiting =
                client.post(new byte[0], "b", System.nanoTime() + DEADLINE_NANOS);
        client.close();
        release.countDown();
        assertThat(onTheWire).as("its connection closed under it").isCompletedExceptionally();
        assertThatThrownBy(() -> waiting.getNow(null)).hasCauseInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> client.post(new byte[0], "c", System.nanoTime() + DEADLINE_NANOS)
                        .getNow(null))
                .hasCauseInstanceOf(RejectedExecutionException.class);
        assertThat(client.openConnections()).isZero();
    }

    @Test
    void answersAreReadAsSentAndEveryReadIsBounded() throws IOException {
        AnswerReader.Input two = input(
                "HTTP/1.1 202 \r\nContent-Length: 3\r\n\r\none" + "HTTP/1.1 429 \r\nContent-Length: 3\r\n\r\ntwo");
        assertThat(AnswerReader.read(two).answer().body()).isEqualTo("one");
        assertThat(AnswerReader.read(two).answer())
                .as("the next answer, intact")
                .isEqualTo(new WireClient.Answer(429, false, "two"));
        assertThat(
                        read(
                                "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 \r\nLink: x\r\n\r\nHTTP/1.1 202 \r\nContent-Length: 2\r\n\r\nok"))
                .as("interim answers are skipped")
                .isEqualTo(new AnswerReader.Response(new WireClient.Answer(202, false, "ok"), false));
        assertThat(read("HTTP/1.1 202 \r\nContent-Length: 5\r\n\r\nhello"))
                .isEqualTo(new AnswerReader.Response(new WireClient.Answer(202, false, "hello"), false));
        assertThat(
                        read(
                                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: t\r\n\r\n"))
                .isEqualTo(new AnswerReader.Response(new WireClient.Answer(200, false, "abcde"), false));
        assertThat(read("HTTP/1.1 503 \r\nConnection: close\r\nRetry-After: 2\r\nContent-Length: 0\r\n\r\n"))
                .isEqualTo(new AnswerReader.Response(new WireClient.Answer(503, true, ""), true));
        assertThat(read("HTTP/1.1 200 \r\n\r\nto the end"))
                .as("no length: the body ends with the connection")
                .isEqualTo(new AnswerReader.Response(new WireClient.Answer(200, false, "to the end"), true));

        assertThatThrownBy(() -> read("")).isInstanceOf(EOFException.class).hasMessageContaining("without an answer");
        assertThatThrownBy(() -> read("HTTP/1.1 202 \r\nContent-Length: 9\r\n\r\nshort"))
                .isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> read("SSH-2.0-OpenSSH\r\n\r\n")).isInstanceOf(ProtocolException.class);
        assertThatThrownBy(() -> read("HTTP/1.1 202 \r\nX: " + "a".repeat(AnswerReader.LINE_BYTES_MAX) + "\r\n\r\n"))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("a line above");
        assertThatThrownBy(() -> read("HTTP/1.1 202 \r\n" + "X: y\r\n".repeat(AnswerReader.HEADERS_MAX + 1) + "\r\n"))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("headers");
        assertThatThrownBy(() ->
                        read("HTTP/1.1 202 \r\nContent-Length: " + (AnswerReader.BODY_BYTES_MAX + 1) + "\r\n\r\n"))
                .isInstanceOf(ProtocolException.class);
        assertThatThrownBy(() -> read("HTTP/1.1 202 \r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("chunk size");
    }

    private static AnswerReader.Response read(String wire) throws IOException {
        return AnswerReader.read(input(wire));
    }

    private static AnswerReader.Input input(String wire) {
        return new AnswerReader.Input(new ByteArrayInputStream(wire.getBytes(StandardCharsets.ISO_8859_1)));
    }

    /** Paces a server's answer: time must pass between its pieces. */
    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** An HTTPS server on 127.0.0.1 that asks for a client certificate from the test CA, as payment-api does. */
    private URI start(HttpHandler handler) throws IOException {
        SSLContext context = PemTls.mutual(
                AUTHORITY.directory().resolve("server.crt"),
                AUTHORITY.directory().resolve("server.key"),
                AUTHORITY.ca());
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.setHttpsConfigurator(new HttpsConfigurator(context) {
            @Override
            public void configure(HttpsParameters parameters) {
                SSLParameters ssl = context.getDefaultSSLParameters();
                ssl.setNeedClientAuth(true);
                parameters.setSSLParameters(ssl);
                connectionsSeen.incrementAndGet(); // called once per accepted connection
            }
        });
        server.setExecutor(handlers);
        server.createContext("/payments", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                handler.handle(exchange);
            }
        });
        server.start();
        return URI.create("https://127.0.0.1:" + server.getAddress().getPort() + "/payments");
    }

    /** A server that holds every call until {@code release}, then answers it 202. */
    private URI startAnsweringOnRelease(CountDownLatch release) throws IOException {
        return start(exchange -> {
            await(release);
            answer(exchange, 202, "ok");
        });
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(10))
                .until(condition::getAsBoolean);
    }
}
