package io.pagora.local;

import io.pagora.kernel.Check;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
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
 * chunked, or (neither) ended by the server's close. Every read is bounded ({@link #LINE_BYTES_MAX},
 * {@link #HEADERS_MAX}, {@link #BODY_BYTES_MAX}), and every call has a deadline: a call still waiting for a connection
 * at its deadline fails unsent ({@link HttpTimeoutException}); a call whose answer is late fails with the socket's
 * time-out, and its connection is closed, so a late answer is never read as the next call's.
 */
final class WireClient implements AutoCloseable {

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

    private final SSLContext identity;
    private final String host;
    private final int port;
    private final byte[] head;
    private final ArrayBlockingQueue<Call> waiting;
    private final List<Thread> connections = new ArrayList<>();
    /** Connections open now (each thread holds at most one). */
    private final AtomicInteger open = new AtomicInteger();
    private volatile boolean closed;

    WireClient(SSLContext identity, URI uri, int connectionsMax, int callsWaitingMax) {
        Check.that("https".equals(uri.getScheme()) && uri.getPort() > 0, "an https URI with a port: %s", uri);
        Check.that(connectionsMax >= 1 && connectionsMax <= 1024, "connections 1..1024");
        Check.that(callsWaitingMax >= 1 && callsWaitingMax <= 1_000_000, "calls waiting 1..1000000");
        this.identity = identity;
        this.host = uri.getHost();
        this.port = uri.getPort();
        this.head = ("POST " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + host + ":" + port
                + "\r\nContent-Type: application/json\r\nAccept: application/json\r\n").getBytes(StandardCharsets.US_ASCII);
        this.waiting = new ArrayBlockingQueue<>(callsWaitingMax);
        for (int connection = 0; connection < connectionsMax; connection++) {
            connections.add(Thread.ofVirtual().name("bench-wire-" + port + "-", connection).start(this::serve));
        }
    }

    /**
     * Sends a POST of {@code json} (with an {@code Idempotency-Key} header unless {@code idempotencyKey} is null), to
     * be answered by {@code deadlineNanos} ({@link System#nanoTime}). The answer completes on the connection's thread.
     */
    CompletableFuture<Answer> post(byte[] json, String idempotencyKey, long deadlineNanos) {
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        if (closed) {
            answer.completeExceptionally(new RejectedExecutionException("the client is closed"));
        } else if (!waiting.offer(new Call(request(json, idempotencyKey), deadlineNanos, answer))) {
            answer.completeExceptionally(new RejectedExecutionException("more than " + (waiting.size() + waiting.remainingCapacity())
                    + " calls waiting for a connection"));
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
        Connection connection = null;
        try {
            while (!closed) {
                Call call = waiting.poll(1, TimeUnit.SECONDS);
                if (call != null) {
                    connection = answer(call, connection);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing
        } finally {
            close(connection);
        }
    }

    /** Answers {@code call} on {@code connection} (or a new one); returns the connection to keep, or null. */
    private Connection answer(Call call, Connection connection) {
        long leftNanos = call.deadlineNanos() - System.nanoTime();
        if (leftNanos <= 0) {
            call.answer().completeExceptionally(new HttpTimeoutException("its deadline passed before a connection was free: not sent"));
            return connection;
        }
        Connection used = connection;
        try {
            if (used != null && System.nanoTime() - used.idleSinceNanos > IDLE_REUSE_MAX.toNanos()) {
                close(used);
                used = null;
            }
            if (used == null) {
                used = connect(leftNanos);
            }
            used.socket.setSoTimeout(millis(call.deadlineNanos() - System.nanoTime()));
            used.out.write(call.request());
            used.out.flush();
            Response response = read(used.in);
            call.answer().complete(response.answer());
            if (response.close()) {
                close(used);
                return null;
            }
            used.idleSinceNanos = System.nanoTime();
            return used;
        } catch (IOException | RuntimeException e) {
            close(used);
            call.answer().completeExceptionally(e);
            return null;
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
            open.incrementAndGet();
            return new Connection(socket, new Input(socket.getInputStream()), socket.getOutputStream());
        } catch (IOException | RuntimeException e) {
            plain.close();
            throw e;
        }
    }

    private void close(Connection connection) {
        if (connection == null) {
            return;
        }
        open.decrementAndGet();
        try {
            connection.socket.close();
        } catch (IOException e) {
            // Closing a broken connection: nothing left to do with it.
        }
    }

    private static final class Connection {
        final SSLSocket socket;
        final Input in;
        final OutputStream out;
        long idleSinceNanos = System.nanoTime();

        Connection(SSLSocket socket, Input in, OutputStream out) {
            this.socket = socket;
            this.in = in;
            this.out = out;
        }
    }

    /** An answer, and whether its connection must be closed after it. */
    record Response(Answer answer, boolean close) {}

    /** Reads one HTTP/1.1 answer from {@code in}, bounded. */
    static Response read(Input in) throws IOException {
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
        connections.forEach(Thread::interrupt);
        for (Thread connection : connections) {
            try {
                connection.join(Duration.ofSeconds(5));
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
