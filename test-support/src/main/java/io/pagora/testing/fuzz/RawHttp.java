package io.pagora.testing.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.SSLContext;

/**
 * A deliberately naive HTTP/1.1 client over a plain socket to 127.0.0.1, so that a request can carry
 * what real clients refuse to send: raw bytes in the target and header values, duplicate or
 * contradictory headers, bodies that disagree with their Content-Length. One request per connection
 * ({@code Connection: close}); the response is read to EOF, bounded in size and time. Over TLS when given a
 * context (a service with mutual TLS: the context presents the caller's certificate); the bytes inside are as raw.
 */
public final class RawHttp {

    /** A response larger than this is a defect of its own; reading stops there. */
    static final int RESPONSE_BYTES_MAX = 4 << 20;

    private final int port;
    private final int timeoutMs;
    private final SSLContext tls;

    public RawHttp(int port, int timeoutMs) {
        this(port, timeoutMs, null);
    }

    /** @param tls the client's TLS context (its identity and trusted CA), or null for plain HTTP */
    public RawHttp(int port, int timeoutMs, SSLContext tls) {
        this.port = port;
        this.timeoutMs = timeoutMs;
        this.tls = tls;
    }

    /** What came back: status 0 when the server closed the connection without an HTTP answer. */
    public record Response(int status, Map<String, String> headers, byte[] body, String failure) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /**
     * Sends one request exactly as given (header values' characters as single bytes), with {@code Accept: *}{@code /*}
     * unless it has an Accept header: for a test that sends what a real client would not.
     */
    public Response exchange(String method, String target, List<Map.Entry<String, String>> headers, byte[] body) {
        List<Map.Entry<String, String>> all = new ArrayList<>(headers);
        if (all.stream().noneMatch(header -> header.getKey().equalsIgnoreCase("Accept"))) {
            all.add(Map.entry("Accept", "*/*"));
        }
        return exchange(new FuzzRequest(method + " " + target, "", method, target, List.copyOf(all), body, Set.of()));
    }

    public Response exchange(FuzzRequest request) {
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), timeoutMs);
            plain.setSoTimeout(timeoutMs);
            try (Socket socket =
                    tls == null ? plain : tls.getSocketFactory().createSocket(plain, "127.0.0.1", port, true)) {
                String writeFailure = write(socket.getOutputStream(), request);
                return read(socket.getInputStream(), writeFailure);
            }
        } catch (IOException e) {
            return new Response(0, Map.of(), new byte[0], e.toString());
        }
    }

    /** Writes the request; a server that answers and closes early (413, 400) may cut the body short. */
    private static String write(OutputStream out, FuzzRequest request) {
        try {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            head.writeBytes(latin1(request.method() + " " + request.target() + " HTTP/1.1\r\n"));
            head.writeBytes(latin1("Host: 127.0.0.1\r\nConnection: close\r\n"));
            for (Map.Entry<String, String> header : request.headers()) {
                head.writeBytes(latin1(header.getKey() + ": " + promisable(header, request.body()) + "\r\n"));
            }
            if (request.body() != null
                    && !request.hasHeader("Content-Length")
                    && !request.hasHeader("Transfer-Encoding")) {
                head.writeBytes(latin1("Content-Length: " + request.body().length + "\r\n"));
            }
            head.writeBytes(latin1("\r\n"));
            out.write(head.toByteArray());
            if (request.body() != null && request.body().length > 0) {
                out.write(request.body());
            } else if (request.hasHeader("Transfer-Encoding")) {
                // Chunked framing without chunks would leave the server waiting: end it.
                out.write(latin1("0\r\n\r\n"));
            }
            out.flush();
            return null;
        } catch (IOException e) {
            return e.toString();
        }
    }

    /**
     * A Content-Length that promises more bytes than are sent only makes the server wait for them (as it
     * should): cut to the body's length, so a composed mutation probes parsing, not patience.
     */
    private static String promisable(Map.Entry<String, String> header, byte[] body) {
        int length = body == null ? 0 : body.length;
        if (header.getKey().equalsIgnoreCase("Content-Length")
                && header.getValue().matches("[0-9]{1,9}")
                && Integer.parseInt(header.getValue()) > length) {
            return Integer.toString(length);
        }
        return header.getValue();
    }

    private static Response read(InputStream in, String writeFailure) {
        byte[] raw;
        try {
            raw = in.readNBytes(RESPONSE_BYTES_MAX);
        } catch (IOException e) {
            return new Response(0, Map.of(), new byte[0], (writeFailure == null ? "" : writeFailure + "; ") + e);
        }
        int headEnd = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        if (headEnd < 0) {
            return new Response(
                    0, Map.of(), raw, "no HTTP response" + (writeFailure == null ? "" : " (" + writeFailure + ")"));
        }
        String[] lines = new String(raw, 0, headEnd, StandardCharsets.ISO_8859_1).split("\r\n");
        String[] statusLine = lines[0].split(" ", 3);
        int status = statusLine.length >= 2 && statusLine[1].matches("[0-9]{3}") ? Integer.parseInt(statusLine[1]) : 0;
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.merge(
                        lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim(),
                        (a, b) -> a + ", " + b);
            }
        }
        byte[] body = java.util.Arrays.copyOfRange(raw, headEnd + 4, raw.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Response(status, headers, body, writeFailure);
    }

    private static byte[] dechunk(byte[] chunked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        // Bounded: each round consumes at least the chunk-size line.
        for (int round = 0; round < chunked.length && at < chunked.length; round++) {
            int lineEnd = indexOf(java.util.Arrays.copyOfRange(chunked, at, chunked.length), new byte[] {'\r', '\n'});
            if (lineEnd < 0) {
                break;
            }
            String sizeText = new String(chunked, at, lineEnd, StandardCharsets.ISO_8859_1).split(";")[0].trim();
            int size = sizeText.matches("[0-9a-fA-F]{1,7}") ? Integer.parseInt(sizeText, 16) : 0;
            at += lineEnd + 2;
            if (size == 0 || at + size > chunked.length) {
                break;
            }
            out.write(chunked, at, size);
            at += size + 2;
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static byte[] latin1(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
