package io.pagora.local.load;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Reads the HTTP/1.1 answers {@link WireClient} gets: a status line, headers, and a body sized by
 * {@code Content-Length}, sent chunked, or (neither) ended by the server's close; interim 1xx answers are skipped.
 * Every read is bounded ({@link #LINE_BYTES_MAX}, {@link #HEADERS_MAX}, {@link #BODY_BYTES_MAX}).
 */
public final class AnswerReader {

    static final int LINE_BYTES_MAX = 8192;
    static final int HEADERS_MAX = 64;
    static final int BODY_BYTES_MAX = 16 << 20;

    private AnswerReader() {}

    /** An answer, and whether its connection must be closed after it. */
    record Response(WireClient.Answer answer, boolean close) {}

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
        return new Response(new WireClient.Answer(status, retryAfter, new String(body, StandardCharsets.UTF_8)), close);
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
                    throw new EOFException(
                            first && length == 0
                                    ? "the connection closed without an answer"
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
}
