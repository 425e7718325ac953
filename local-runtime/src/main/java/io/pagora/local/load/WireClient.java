package io.pagora.local.load;

import io.pagora.kernel.Check;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
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
 * ({@link #LINE_BYTES_MAX}, {@link #HEADERS_MAX}, {@link #BODY_BYTES_MAX}), and every call has a deadline: a call with
 * no connection ready by its deadline fails unsent ({@link HttpTimeoutException}); a call whose answer is not read by
 * then fails with a {@link java.net.SocketTimeoutException} (a watchdog closes its connection, so a write or an answer
 * read in many pieces is bounded too), and a late answer is never read as the next call's.
 */
public final class WireClient implements AutoCloseable {

    /** What one call was answered: its status, whether it said when to retry, and its body. */
    record Answer(int status, boolean retryAfter, String body) {}

    static final int LINE_BYTES_MAX = 8192;
    static final int HEADERS_MAX = 64;
    static final int BODY_BYTES_MAX = 16 << 20;
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
                + "\r\nContent-Type: application/json\r\nAccept: application/json\r\n").getBytes(StandardCharsets.US_ASCII);
        this.idleReuseMaxNanos = idleReuseMax.toNanos();
        this.waiting = new ArrayBlockingQueue<>(callsWaitingMax);
        for (int connection = 0; connection < connectionsMax; connection++) {
            threads.add(Thread.ofVirtual().name("bench-wire-" + port + "-", connection).start(this::serve));
        }
        threads.add(Thread.ofVirtual().name("bench-wire-" + port + "-watchdog").start(this::watch));
    }

    /**
     * Sends a POST of {@code json} (with an {@code Idempotency-Key} header unless {@code idempotencyKey} is null), to
     * be answered by {@code deadlineNanos} ({@link System#nanoTime}). The answer completes on the connection's thread;
     * every call's answer completes, whatever happens (closed client, full queue, broken connection, deadline).
     */
    CompletableFuture<Answer> post(byte[] json, String idempotencyKey, long deadlineNanos) {
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        Call call = new Call(request(json, idempotencyKey), deadlineNanos, answer);
        if (closed) {
            answer.completeExceptionally(new RejectedExecutionException("the client is closed"));
        } else if (!waiting.offer(call)) {
            answer.completeExceptionally(new RejectedExecutionException("more than " + (waiting.size() + waiting.remainingCapacity())
                    + " calls waiting for a connection"));
        } else if (closed && waiting.remove(call)) {
            // close() may have drained the queue between the check above and the offer: nobody would take this call.
            answer.completeExceptionally(new RejectedExecutionException("the client closed before it was sent"));
        }
        return answer;
    }

    int openConnections() {
        return open.get();
    }

    private byte[] request(byte[] json, String idempotencyKey) {
        ByteArrayOutputStream request = new ByteArrayOutputStream(head.length + 96 + json.length);
        request.writeBytes(head);
        StringBuilder headers = new StringBuilder(96).append("Content-Length: ").append(json.length).append("\r\n");
        if (idempotencyKey != null) {
            Check.that(idempotencyKey.chars().allMatch(c -> c > 32 && c < 127), "an idempotency key is visible ASCII");
            headers.append("Idempotency-Key: ").append(idempotencyKey).append("\r\n");
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
            Response response = exchange(call, kept);
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
            call.answer().completeExceptionally(broken != null && broken.expired ? new SocketTimeoutException(
                    "no answer within its deadline (" + failure.getClass().getSimpleName() + ")") : failure);
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

    private Response exchange(Call call, Connection[] kept) throws IOException {
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
            return read(used.in);
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
            Connection connection = new Connection(socket, new Input(socket.getInputStream()), socket.getOutputStream());
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
        final Input in;
        final OutputStream out;
        volatile long idleSinceNanos = System.nanoTime();
        /** The deadline of the call on it (read by the watchdog). */
        volatile long deadlineNanos;
        /** Set by the watchdog before it closes the socket: the call's failure is its deadline. */
        volatile boolean expired;
        private final AtomicBoolean closed = new AtomicBoolean();

        Connection(SSLSocket socket, Input in, OutputStream out) {
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

    /** An answer, and whether its connection must be closed after it. */
    record Response(Answer answer, boolean close) {}

    /** Interim (1xx) answers skipped before a final one, at most. */
    static final int INTERIM_ANSWERS_MAX = 8;

    /** Reads one HTTP/1.1 final answer from {@code in} (interim 1xx answers before it are skipped), bounded. */
    static Response read(Input in) throws IOException {
        for (int interim = 0; interim <= INTERIM_ANSWERS_MAX; interim++) {
            Response response = readOne(in);
            if (response.answer().status() >= 200) {
                return response;
            }
        }
        throw new ProtocolException("more than " + INTERIM_ANSWERS_MAX + " interim answers");
    }

    private static Response readOne(Input in) throws IOException {
        String statusLine = in.line(true);
        if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12 || statusLine.charAt(8) != ' ') {
            throw new ProtocolException("not an HTTP/1.x status line: " + abbreviate(statusLine));
        }
        int status = parseStatus(statusLine);
        long contentLength = -1;
        boolean chunked = false;
        boolean retryAfter = false;
        boolean close = statusLine.startsWith("HTTP/1.0");
        for (int count = 0; ; count++) {
            String line = in.line(false);
            if (line.isEmpty()) {
                break;
            }
            if (count == HEADERS_MAX) {
                throw new ProtocolException("more than " + HEADERS_MAX + " headers");
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new ProtocolException("not a header: " + abbreviate(line));
            }
            String name = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("Content-Length")) {
                contentLength = parseLength(value);
            } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                chunked = value.toLowerCase(Locale.ROOT).endsWith("chunked");
            } else if (name.equalsIgnoreCase("Retry-After")) {
                retryAfter = !value.isEmpty();
            } else if (name.equalsIgnoreCase("Connection")) {
                close = value.equalsIgnoreCase("close");
            }
        }
        byte[] body;
        if (status == 101) {
            throw new ProtocolException("a protocol switch was not asked for");
        }
        if (status == 204 || status == 304 || status < 200) {
            body = new byte[0];
        } else if (chunked) {
            body = chunks(in);
        } else if (contentLength >= 0) {
            body = in.exactly(contentLength);
        } else {
            body = in.untilClosed();
            close = true;
        }
        return new Response(new Answer(status, retryAfter, new String(body, StandardCharsets.UTF_8)), close);
    }

    private static int parseStatus(String statusLine) throws ProtocolException {
        try {
            int status = Integer.parseInt(statusLine.substring(9, 12));
            if (status < 100 || status > 599) {
                throw new ProtocolException("status out of range: " + abbreviate(statusLine));
            }
            return status;
        } catch (NumberFormatException e) {
            throw new ProtocolException("no status in: " + abbreviate(statusLine));
        }
    }

    private static long parseLength(String value) throws ProtocolException {
        try {
            long length = Long.parseLong(value);
            if (length < 0 || length > BODY_BYTES_MAX) {
                throw new ProtocolException("Content-Length out of 0.." + BODY_BYTES_MAX + ": " + value);
            }
            return length;
        } catch (NumberFormatException e) {
            throw new ProtocolException("not a Content-Length: " + abbreviate(value));
        }
    }

    private static byte[] chunks(Input in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = in.line(false);
            int extension = sizeLine.indexOf(';');
            long size;
            try {
                size = Long.parseLong((extension < 0 ? sizeLine : sizeLine.substring(0, extension)).trim(), 16);
            } catch (NumberFormatException e) {
                throw new ProtocolException("not a chunk size: " + abbreviate(sizeLine));
            }
            if (size < 0 || body.size() + size > BODY_BYTES_MAX) {
                throw new ProtocolException("a body above " + BODY_BYTES_MAX + " bytes");
            }
            if (size == 0) {
                for (int trailers = 0; !in.line(false).isEmpty(); trailers++) {
                    if (trailers == HEADERS_MAX) {
                        throw new ProtocolException("more than " + HEADERS_MAX + " trailers");
                    }
                }
                return body.toByteArray();
            }
            body.writeBytes(in.exactly(size));
            if (!in.line(false).isEmpty()) {
                throw new ProtocolException("a chunk not followed by CRLF");
            }
        }
    }

    /**
     * A connection's input, buffered here rather than by {@link java.io.BufferedInputStream}, whose every one-byte read
     * takes a lock: an answer's head is read a byte at a time.
     */
    static final class Input {
        private final InputStream in;
        private final byte[] buffer = new byte[16 * 1024];
        private int position;
        private int limit;

        Input(InputStream in) {
            this.in = in;
        }

        /** Fills the buffer if it is empty; false at the end of the stream. */
        private boolean fill() throws IOException {
            if (position < limit) {
                return true;
            }
            int read = in.read(buffer, 0, buffer.length);
            if (read <= 0) {
                return false;
            }
            position = 0;
            limit = read;
            return true;
        }

        /** One line without its CRLF (or LF); at most {@link #LINE_BYTES_MAX} bytes. */
        String line(boolean first) throws IOException {
            StringBuilder line = null;
            int length = 0;
            while (true) {
                if (!fill()) {
                    throw new EOFException(first && length == 0 ? "the connection closed without an answer"
                            : "the connection closed inside an answer");
                }
                int start = position;
                while (position < limit && buffer[position] != '\n') {
                    position++;
                }
                int end = position;
                length += end - start;
                if (length > LINE_BYTES_MAX) {
                    throw new ProtocolException("a line above " + LINE_BYTES_MAX + " bytes");
                }
                String part = new String(buffer, start, end - start, StandardCharsets.ISO_8859_1);
                if (position < limit) {
                    position++; // the LF
                    String whole = line == null ? part : line.append(part).toString();
                    return whole.endsWith("\r") ? whole.substring(0, whole.length() - 1) : whole;
                }
                line = (line == null ? new StringBuilder(128) : line).append(part);
            }
        }

        byte[] exactly(long length) throws IOException {
            byte[] bytes = new byte[(int) length];
            int done = 0;
            while (done < length) {
                if (!fill()) {
                    throw new EOFException("the connection closed after " + done + " of " + length + " body bytes");
                }
                int take = (int) Math.min(length - done, limit - position);
                System.arraycopy(buffer, position, bytes, done, take);
                position += take;
                done += take;
            }
            return bytes;
        }

        byte[] untilClosed() throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            while (fill()) {
                if (bytes.size() + limit - position > BODY_BYTES_MAX) {
                    throw new ProtocolException("a body above " + BODY_BYTES_MAX + " bytes");
                }
                bytes.write(buffer, position, limit - position);
                position = limit;
            }
            return bytes.toByteArray();
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "…";
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
