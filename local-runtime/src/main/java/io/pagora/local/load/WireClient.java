package io.pagora.local.load;

import io.pagora.kernel.Check;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * The bench's own HTTP/1.1 client over mutual TLS, for one bank: its calls go out on at most {@code connectionsMax}
 * kept-alive connections, each served by one virtual thread that writes a call and reads its answer, then takes the
 * next; calls past the connections wait in order ({@code callsWaitingMax} at most).
 *
 * <p>Why not the JDK's {@code HttpClient}: in the overload bench, JFR put 64.5 % of the generator's samples in the JDK
 * client (about 176 µs of CPU per call), so a flood at twice what the platform holds needed a core of its own, on the
 * two cores the generator shares with the platform it measures. Here a call is one write of a request built in one
 * piece and a read of its answer parsed in place.
 *
 * <p>It reads only what payment-api answers: a status line, headers, and a body sized by {@code Content-Length}, sent
 * chunked, or (neither) ended by the server's close; interim 1xx answers are skipped. Every read is bounded
 * ({@link AnswerReader}), and every call has a deadline: a call with
 * no connection ready by its deadline fails unsent ({@link HttpTimeoutException}); a call whose answer is not read by
 * then fails with a {@link java.net.SocketTimeoutException} (a watchdog closes its connection, so a write or an answer
 * read in many pieces is bounded too), and a late answer is never read as the next call's.
 */
public final class WireClient implements AutoCloseable {

    /** What one call was answered: its status, whether it said when to retry, and its body. */
    record Answer(int status, boolean retryAfter, String body) {}

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /**
     * A connection idle for longer is closed instead of used: the server may be closing it (its keep-alive time-out)
     * while the call is written, and a call written into a closing connection has no answer.
     */
    static final Duration IDLE_REUSE_MAX = Duration.ofSeconds(5);

    private record Call(byte[] request, long deadlineNanos, CompletableFuture<Answer> answer) {}

    /** How often the watchdog looks for calls past their deadline. */
    private static final Duration WATCHDOG_INTERVAL = Duration.ofMillis(50);

    private final SSLContext identity;
    private final String host;
    private final int port;
    private final byte[] head;
    private final long idleReuseMaxNanos;
    private final ArrayBlockingQueue<Call> waiting;
    private final List<Thread> threads = new ArrayList<>();
    /** Connections with a call on them: the watchdog closes one whose call is past its deadline. */
    private final Set<Connection> busy = ConcurrentHashMap.newKeySet();
    /** Connections open now (each thread holds at most one). */
    private final AtomicInteger open = new AtomicInteger();

    private volatile boolean closed;

    WireClient(SSLContext identity, URI uri, int connectionsMax, int callsWaitingMax) {
        this(identity, uri, connectionsMax, callsWaitingMax, IDLE_REUSE_MAX);
    }

    WireClient(SSLContext identity, URI uri, int connectionsMax, int callsWaitingMax, Duration idleReuseMax) {
        Check.that("https".equals(uri.getScheme()) && uri.getPort() > 0, "an https URI with a port: %s", uri);
        Check.that(connectionsMax >= 1 && connectionsMax <= 1024, "connections 1..1024");
        Check.that(callsWaitingMax >= 1 && callsWaitingMax <= 1_000_000, "calls waiting 1..1000000");
        Check.that(idleReuseMax.isPositive(), "a positive idle reuse bound");
        this.identity = identity;
        this.host = uri.getHost();
        this.port = uri.getPort();
        this.head = ("POST " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + host + ":" + port
                        + "\r\nContent-Type: application/json\r\nAccept: application/json\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        this.idleReuseMaxNanos = idleReuseMax.toNanos();
        this.waiting = new ArrayBlockingQueue<>(callsWaitingMax);
        for (int connection = 0; connection < connectionsMax; connection++) {
            threads.add(Thread.ofVirtual()
                    .name("bench-wire-" + port + "-", connection)
                    .start(this::serve));
        }
        threads.add(Thread.ofVirtual().name("bench-wire-" + port + "-watchdog").start(this::watch));
    }

    /**
     * Sends a POST of {@code json} (with an {@code Idempotency-Key} header unless {@code idempotencyKey} is null), to
     * be answered by {@code deadlineNanos} ({@link System#nanoTime}). The answer completes on the connection's thread;
     * every call's answer completes, whatever happens (closed client, full queue, broken connection, deadline).
     */
    CompletableFuture<Answer> post(byte[] json, String idempotencyKey, long deadlineNanos) {
        return post(json, idempotencyKey, null, deadlineNanos);
    }

    /** As {@link #post(byte[], String, long)}, with a {@code PI-PayerId} header unless {@code payerId} is null. */
    CompletableFuture<Answer> post(byte[] json, String idempotencyKey, String payerId, long deadlineNanos) {
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        Call call = new Call(request(json, idempotencyKey, payerId), deadlineNanos, answer);
        if (closed) {
            answer.completeExceptionally(new RejectedExecutionException("the client is closed"));
        } else if (!waiting.offer(call)) {
            answer.completeExceptionally(new RejectedExecutionException(
                    "more than " + (waiting.size() + waiting.remainingCapacity()) + " calls waiting for a connection"));
        } else if (closed && waiting.remove(call)) {
            // close() may have drained the queue between the check above and the offer: nobody would take this call.
            answer.completeExceptionally(new RejectedExecutionException("the client closed before it was sent"));
        }
        return answer;
    }

    int openConnections() {
        return open.get();
    }

    private byte[] request(byte[] json, String idempotencyKey, String payerId) {
        ByteArrayOutputStream request = new ByteArrayOutputStream(head.length + 96 + json.length);
        request.writeBytes(head);
        StringBuilder headers = new StringBuilder(96)
                .append("Content-Length: ")
                .append(json.length)
                .append("\r\n");
        if (idempotencyKey != null) {
            Check.that(idempotencyKey.chars().allMatch(c -> c > 32 && c < 127), "an idempotency key is visible ASCII");
            headers.append("Idempotency-Key: ").append(idempotencyKey).append("\r\n");
        }
        if (payerId != null) {
            Check.that(payerId.chars().allMatch(c -> c >= '0' && c <= 'Z'), "a payer id is a CPF or CNPJ");
            headers.append("PI-PayerId: ").append(payerId).append("\r\n");
        }
        request.writeBytes(headers.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
        request.writeBytes(json);
        return request.toByteArray();
    }

    /** One connection's thread: takes the next waiting call, answers it, keeps the connection for the next. */
    private void serve() {
        Connection[] kept = new Connection[1];
        try {
            while (!closed) {
                Call call = waiting.poll(1, TimeUnit.SECONDS);
                if (call != null) {
                    answer(call, kept);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing
        } finally {
            close(kept[0]);
        }
    }

    /**
     * Answers {@code call} on the connection in {@code kept[0]} (or a new one, left there for the next call; null when
     * it had to be closed). The call's answer is completed on every path, an {@link Error} included (then rethrown).
     */
    private void answer(Call call, Connection[] kept) {
        try {
            AnswerReader.Response response = exchange(call, kept);
            call.answer().complete(response.answer());
            if (response.close()) {
                close(kept[0]);
                kept[0] = null;
            }
        } catch (NotSent late) {
            call.answer().completeExceptionally(late); // the connection is sound: kept for the next call
        } catch (Throwable failure) {
            Connection broken = kept[0];
            kept[0] = null;
            close(broken);
            call.answer()
                    .completeExceptionally(
                            broken != null && broken.expired
                                    ? new SocketTimeoutException("no answer within its deadline ("
                                            + failure.getClass().getSimpleName() + ")")
                                    : failure);
            if (failure instanceof Error error) {
                throw error;
            }
        }
    }

    /**
     * A call whose deadline passed before it was written: nothing was sent, so its connection (if any) is kept. Closing
     * it would make the next call pay a TLS handshake, in the overload a client is meant to survive.
     */
    private static final class NotSent extends HttpTimeoutException {
        NotSent() {
            super("its deadline passed before a connection was ready: not sent");
        }
    }

    private AnswerReader.Response exchange(Call call, Connection[] kept) throws IOException {
        if (kept[0] != null && System.nanoTime() - kept[0].idleSinceNanos > idleReuseMaxNanos) {
            close(kept[0]);
            kept[0] = null;
        }
        if (kept[0] == null && call.deadlineNanos() - System.nanoTime() > 0) {
            kept[0] = connect(call.deadlineNanos() - System.nanoTime());
        }
        if (call.deadlineNanos() - System.nanoTime() <= 0) {
            // Checked after connecting too: a handshake may outlast a call's deadline, and a late call is never sent.
            throw new NotSent();
        }
        Connection used = kept[0];
        used.deadlineNanos = call.deadlineNanos();
        busy.add(used);
        try {
            used.socket.setSoTimeout(millis(call.deadlineNanos() - System.nanoTime()));
            used.out.write(call.request());
            used.out.flush();
            return AnswerReader.read(used.in);
        } finally {
            busy.remove(used);
            used.idleSinceNanos = System.nanoTime();
        }
    }

    /**
     * Closes the connection of a call past its deadline: the socket's time-out bounds each read, not a whole answer
     * read in many, nor a write; this bounds the call.
     */
    private void watch() {
        try {
            while (!closed) {
                Thread.sleep(WATCHDOG_INTERVAL);
                long now = System.nanoTime();
                for (Connection connection : busy) {
                    if (now - connection.deadlineNanos > 0) {
                        connection.expired = true;
                        connection.closeSocket();
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing
        }
    }

    private static int millis(long nanos) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(nanos) + 1));
    }

    private Connection connect(long leftNanos) throws IOException {
        Socket plain = new Socket();
        try {
            plain.setTcpNoDelay(true);
            plain.connect(new InetSocketAddress(host, port), millis(Math.min(leftNanos, CONNECT_TIMEOUT.toNanos())));
            plain.setSoTimeout(millis(Math.min(leftNanos, CONNECT_TIMEOUT.toNanos())));
            SSLSocket socket = (SSLSocket) identity.getSocketFactory().createSocket(plain, host, port, true);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS"); // as the JDK client: the server's name is checked
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            Connection connection =
                    new Connection(socket, new AnswerReader.Input(socket.getInputStream()), socket.getOutputStream());
            open.incrementAndGet();
            return connection;
        } catch (IOException | RuntimeException e) {
            plain.close();
            throw e;
        }
    }

    /** Closes {@code connection} once (a second close does nothing). */
    private void close(Connection connection) {
        if (connection != null && connection.markClosed()) {
            open.decrementAndGet();
            connection.closeSocket();
        }
    }

    private static final class Connection {
        final SSLSocket socket;
        final AnswerReader.Input in;
        final OutputStream out;
        volatile long idleSinceNanos = System.nanoTime();
        /** The deadline of the call on it (read by the watchdog). */
        volatile long deadlineNanos;
        /** Set by the watchdog before it closes the socket: the call's failure is its deadline. */
        volatile boolean expired;

        private final AtomicBoolean closed = new AtomicBoolean();

        Connection(SSLSocket socket, AnswerReader.Input in, OutputStream out) {
            this.socket = socket;
            this.in = in;
            this.out = out;
        }

        boolean markClosed() {
            return closed.compareAndSet(false, true);
        }

        void closeSocket() {
            try {
                socket.close();
            } catch (IOException e) {
                // Closing a broken connection: nothing left to do with it.
            }
        }
    }

    /** Stops every connection; calls still waiting fail unsent. */
    @Override
    public void close() {
        closed = true;
        threads.forEach(Thread::interrupt);
        for (Thread thread : threads) {
            try {
                thread.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (Call call; (call = waiting.poll()) != null; ) {
            call.answer().completeExceptionally(new RejectedExecutionException("the client closed before it was sent"));
        }
    }
}
