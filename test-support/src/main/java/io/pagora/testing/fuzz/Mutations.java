package io.pagora.testing.fuzz;

import io.pagora.testing.fuzz.OpenApiDocument.Operation;
import io.pagora.testing.fuzz.OpenApiDocument.Parameter;
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The malformed variants of one operation's well-formed request, derived from its schema: headers,
 * query string, path parameters, body, method. Each {@link Mutation} breaks one thing.
 *
 * <p>Over 400 lines on purpose: one catalogue of breakages, each a few lines beside the others of its part of the request,
 * so what the fuzzer tries is read in one place.
 */
final class Mutations {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Raw ISO-8859-1 characters stand for single bytes on the wire. */
    private static final String INVALID_UTF8_BYTES = "\u00c3\u0028\u00ff\u00fe";

    static final List<String> BAD_ACCEPT = List.of(
            "text/csv",
            "application/xml",
            "garbage",
            "application/json;q=abc",
            "*/*;;;",
            "application/",
            "image/png, text/html;q=0.1",
            "application/json; charset=\"",
            "",
            "multipart/form-data",
            "application/json;charset=bogus",
            "application/json;q=0",
            "text/plain");
    /**
     * Media types a body endpoint does not take, malformed ones, and media types with parameters a parser may trip on
     * (a multipart type without its boundary, an unknown charset, a repeated or stray parameter), and none at all
     * (an empty value): sent to every operation and probe, with or without a body.
     */
    static final List<String> BAD_CONTENT_TYPE = List.of(
            "text/plain",
            "application/xml",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/json; charset=ISO-8859-1",
            "application/json; charset=nonsense",
            "application/json; charset=\"",
            ";",
            "application/",
            "*/*",
            "application/*",
            "application/json, text/plain",
            "application/json; charset=utf-16",
            "multipart/form-data",
            "multipart/form-data; boundary=",
            "multipart/mixed",
            "multipart/byteranges",
            "application/json;charset=bogus",
            "application/json; charset=utf-8; charset=latin1",
            "application/json; boundary=x",
            "application/json;",
            "text/plain; charset=utf-8",
            "application/x-www-form-urlencoded; charset=bogus",
            "application/problem+json",
            "message/http",
            "");
    /**
     * Header values with bytes outside ASCII, as clients send them (one character a byte on the wire): text in UTF-8
     * ({@code ×ø}, {@code €}: their bytes 0x80-0x9F read as ISO-8859-1 are C1 controls), text in ISO-8859-1, and bytes
     * that are no text. Few, as each goes to every header the API reads, of every operation and probe.
     */
    static final List<String> NON_ASCII_VALUES =
            List.of(utf8Bytes("\u00d7\u00f8"), "\u00d7\u00f8", utf8Bytes("\u20ac"), "\u00ff\u00fe");
    /**
     * The headers the HTTP stack itself reads on a request (Tomcat, Spring MVC, Spring Security: content negotiation,
     * the body's type, CORS, locale, compression, conditional and range requests), besides those the document declares.
     */
    static final List<String> FRAMEWORK_HEADERS = List.of(
            "Accept",
            "Content-Type",
            "Origin",
            "Accept-Language",
            "Accept-Encoding",
            "If-None-Match",
            "If-Modified-Since",
            "Range",
            "Access-Control-Request-Method");
    /**
     * ASCII values of those headers (Accept and Content-Type have their own lists) that their parsers may trip on; in
     * order, so a seed replays.
     */
    static final List<Map.Entry<String, List<String>>> FRAMEWORK_HEADER_VALUES = List.of(
            Map.entry("Origin", List.of("null", "http://evil.example", "://")),
            Map.entry("Accept-Language", List.of("zz;q=abc", "*;q=2")),
            Map.entry("Accept-Encoding", List.of("gzip;q=abc", "br, identity;q=0, *;q=0")),
            Map.entry("If-None-Match", List.of("*", "\"unterminated")),
            Map.entry("If-Modified-Since", List.of("garbage", "Thu, 01 Jan 2099 00:00:00 GMT")),
            Map.entry("Range", List.of("bytes=99999999-", "bytes=5-1", "bytes=abc", "bytes=0-0,1-1,2-2,3-3,4-4,5-5")),
            Map.entry("Access-Control-Request-Method", List.of("FOO")));

    static final List<String> BAD_HEADER_VALUES = List.of(
            "",
            " ",
            "a b",
            "tab\there",
            "\u0001",
            "\u00e9t\u00e9",
            INVALID_UTF8_BYTES,
            "x".repeat(129),
            "y".repeat(8000),
            "\u00c3\u00a9");
    static final List<String> BAD_QUERY_VALUES = List.of(
            "",
            "-1",
            "0",
            "99999999999999999999999",
            "1e3",
            "1.5",
            "abc",
            "%00",
            "%zz",
            "%",
            "%C3%28",
            "%FF%FE",
            "%E2%80%AE",
            "A".repeat(5000),
            "true",
            "[]",
            "%0d%0aX-Injected:%201",
            "null",
            "-9223372036854775809",
            "%2e%2e%2f");
    static final List<String> BAD_PATH_VALUES = List.of(
            "x",
            "-1",
            "0",
            "%20",
            "%00",
            "%2F",
            "%2e%2e",
            "..",
            "%ZZ",
            "%",
            "%C0%AF",
            "%FF",
            "%E2%80%AE",
            "%C3%A9",
            "%0d%0a",
            "a".repeat(5000),
            ";jsessionid=x",
            "%3B",
            "{x}",
            "%7Bx%7D",
            "\u00e9",
            "a%00b");
    static final List<String> BAD_JSON = List.of(
            "",
            "{",
            "}",
            "[]",
            "null",
            "\"text\"",
            "1",
            "{\"a\":}",
            "{'a':1}",
            "{}x",
            "{\"a\":1,}",
            "/* c */{}",
            "{\"a\":NaN}",
            "{\"a\":1,\"a\":2}",
            "{\"a\":\"\\ud800\"}",
            "{\"a\":\"\\x\"}",
            "\u0000",
            "{\"a\":01}",
            "{\"a\":1e99999}",
            "{\"a\":\"unterminated}");
    static final List<String> UNKNOWN_PATHS = List.of(
            "/nope",
            "/payments/a/b/c/d",
            "//",
            "/%2e%2e/%2e%2e/etc/passwd",
            "/.;/x",
            "/actuator/nope",
            "/openapi.yaml/x",
            "/%00",
            "/%ZZ",
            "/\u00e9",
            "/" + "p".repeat(6000));
    static final List<String> EXTRA_METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "TRACE", "FOO");
    static final Set<Integer> WRONG_METHOD_STATUSES = Set.of(405);
    static final Set<Integer> UNKNOWN_PATH_STATUSES = Set.of(400, 404, 405);

    private Mutations() {}

    static List<Mutation> headers(Operation operation, FuzzRequest valid) {
        List<Mutation> mutations = new ArrayList<>();
        for (String accept : BAD_ACCEPT) {
            mutations.add(new Mutation("Accept: " + accept, r -> r.withHeader("Accept", accept)));
        }
        mutations.add(new Mutation("Accept missing", r -> r.withHeader("Accept", null)));
        mutations.add(new Mutation("20 KB header", r -> r.plusHeader("X-Fuzz", "h".repeat(20_000))));
        mutations.add(new Mutation("70 KB header", r -> r.plusHeader("X-Fuzz", "h".repeat(70_000))));
        mutations.add(new Mutation("header with raw bytes", r -> r.plusHeader("X-Fuzz", INVALID_UTF8_BYTES)));
        mutations.add(new Mutation("header without a name", r -> r.plusHeader("", "value")));
        mutations.add(new Mutation("Expect: nonsense", r -> r.plusHeader("Expect", "nonsense")));
        mutations.add(new Mutation("Content-Length: abc", r -> r.withHeader("Content-Length", "abc")));
        mutations.add(new Mutation("Content-Length: -1", r -> r.withHeader("Content-Length", "-1")));
        mutations.add(new Mutation("Transfer-Encoding: gzip", r -> r.withHeader("Transfer-Encoding", "gzip")));
        mutations.add(new Mutation(
                "bad chunked body",
                r -> r.withHeader("Transfer-Encoding", "chunked")
                        .withBody("zz\r\nnot a chunk\r\n".getBytes(StandardCharsets.ISO_8859_1))));
        for (String contentType : BAD_CONTENT_TYPE) {
            mutations.add(new Mutation("Content-Type: " + contentType, r -> r.withHeader("Content-Type", contentType)));
        }
        mutations.add(new Mutation("Content-Type missing", r -> r.withHeader("Content-Type", null)));
        mutations.add(new Mutation("two Content-Types", r -> r.plusHeader("Content-Type", "text/plain")));
        for (Map.Entry<String, List<String>> header : FRAMEWORK_HEADER_VALUES) {
            for (String value : header.getValue()) {
                mutations.add(new Mutation(
                        header.getKey() + ": " + abbreviate(value), r -> r.withHeader(header.getKey(), value)));
            }
        }
        for (String header : readHeaders(operation)) {
            for (String value : NON_ASCII_VALUES) {
                mutations.add(new Mutation(
                        header + " outside ASCII: " + abbreviate(value), r -> r.withHeader(header, value)));
            }
        }
        for (Parameter header : operation.in("header")) {
            for (String value : BAD_HEADER_VALUES) {
                mutations.add(new Mutation(
                        header.name() + ": " + abbreviate(value), r -> r.withHeader(header.name(), value)));
            }
            mutations.add(new Mutation(header.name() + " missing", r -> r.withHeader(header.name(), null)));
            mutations.add(new Mutation("two " + header.name(), r -> r.plusHeader(header.name(), "other-value")));
        }
        return mutations;
    }

    /** Every header the API reads: the framework's and those the operation declares. */
    static List<String> readHeaders(Operation operation) {
        List<String> headers = new ArrayList<>(FRAMEWORK_HEADERS);
        operation.in("header").forEach(header -> headers.add(header.name()));
        return headers;
    }

    /** {@code text}'s UTF-8 bytes, one character each, as a raw header value. */
    static String utf8Bytes(String text) {
        return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    static List<Mutation> query(Operation operation) {
        List<Mutation> mutations = new ArrayList<>();
        for (Parameter parameter : operation.in("query")) {
            for (String value : BAD_QUERY_VALUES) {
                mutations.add(new Mutation(
                        "?" + parameter.name() + "=" + abbreviate(value),
                        r -> r.withTarget(withQuery(r.target(), parameter.name(), value))));
            }
            mutations.add(new Mutation(
                    "?" + parameter.name() + " twice",
                    r -> r.withTarget(r.target() + (r.target().contains("?") ? "&" : "?") + parameter.name() + "=1")));
            mutations.add(new Mutation(
                    "?" + parameter.name() + " without =",
                    r -> r.withTarget(withQuery(r.target(), parameter.name(), null))));
        }
        for (String junk : List.of("foo=bar", "=", "&&&", "a=%zz", "%=%", "a[b]=c", "x".repeat(9000), "%C3%28=1")) {
            mutations.add(new Mutation(
                    "query " + abbreviate(junk),
                    r -> r.withTarget(r.target() + (r.target().contains("?") ? "&" : "?") + junk)));
        }
        return mutations;
    }

    static List<Mutation> path(Operation operation, Map<String, String> validPathValues) {
        List<Mutation> mutations = new ArrayList<>();
        for (Parameter parameter : operation.in("path")) {
            for (String value : BAD_PATH_VALUES) {
                mutations.add(new Mutation(
                        "{" + parameter.name() + "} = " + abbreviate(value),
                        r -> r.withTarget(Targets.expand(operation.path(), validPathValues, parameter.name(), value)
                                + Targets.queryOf(r.target()))));
            }
            mutations.add(new Mutation("{" + parameter.name() + "} + /extra", r -> {
                String path = r.target().split("\\?", 2)[0];
                return r.withTarget(path + "/extra");
            }));
        }
        return mutations;
    }

    /**
     * Ids at the edges of their range, all zeros and all {@code f}s (with and without the low byte a payment id keeps
     * zero), in every path parameter and body field: a value the API cannot parse must be a 4xx, never a 500.
     */
    static final List<String> EDGE_IDS =
            List.of("0".repeat(32), "f".repeat(32), "f".repeat(30) + "00", "F".repeat(32), "0".repeat(31) + "1");

    static List<Mutation> edgeIds(Operation operation, Map<String, String> validPathValues) {
        List<Mutation> mutations = new ArrayList<>();
        for (Parameter parameter : operation.in("path")) {
            for (String id : EDGE_IDS) {
                mutations.add(new Mutation(
                        "{" + parameter.name() + "} = " + id,
                        r -> r.withTarget(Targets.expand(operation.path(), validPathValues, parameter.name(), id)
                                + Targets.queryOf(r.target()))));
            }
        }
        if (operation.bodySchema() != null) {
            for (List<Object> field : Targets.fieldPaths(operation.bodySchema())) {
                for (String id : EDGE_IDS) {
                    mutations.add(new Mutation(
                            "body " + Targets.describe(field) + " = " + id,
                            r -> editJson(r, tree -> Targets.set(tree, field, NODES.stringNode(id)))));
                }
            }
        }
        return mutations;
    }

    /**
     * The boundary values each parameter's and body field's schema admits ({@link SchemaSamples#admitted}), one at a
     * time in an otherwise well-formed request: the document says the API takes them, so none may be answered 400 (a
     * schema looser than the API's checks: a client generated from the document sends what the API refuses). Every
     * other documented status is fine (a generated id names no payment: 404). Names in {@code notBoundable} are
     * skipped: no schema says which of their values the API takes (a recent end-to-end id, an opaque cursor).
     */
    static List<Mutation> admitted(Operation operation, Map<String, String> validPathValues, Set<String> notBoundable) {
        Set<Integer> statuses = new java.util.TreeSet<>(operation.statuses());
        statuses.remove(400);
        List<Mutation> mutations = new ArrayList<>();
        for (Parameter parameter : operation.parameters()) {
            if (notBoundable.contains(parameter.name())) {
                continue;
            }
            for (JsonNode value : SchemaSamples.admitted(parameter.schema())) {
                String text = value.isString() ? value.asString() : value.toString();
                String label = "admitted " + parameter.in() + " " + parameter.name() + " = " + abbreviate(text);
                mutations.add(new Mutation(label, r -> switch (parameter.in()) {
                    case "path" ->
                        r.withTarget(Targets.expand(operation.path(), validPathValues, parameter.name(), encode(text))
                                        + Targets.queryOf(r.target()))
                                .withMethod(r.method(), statuses);
                    case "query" ->
                        r.withTarget(withQuery(r.target(), parameter.name(), encode(text)))
                                .withMethod(r.method(), statuses);
                    case "header" -> r.withHeader(parameter.name(), text).withMethod(r.method(), statuses);
                    default -> r;
                }));
            }
        }
        if (operation.bodySchema() != null) {
            for (List<Object> field : Targets.fieldPaths(operation.bodySchema())) {
                if (field.getLast() instanceof String name && notBoundable.contains(name)) {
                    continue;
                }
                for (JsonNode value : SchemaSamples.admitted(Targets.schemaAt(operation.bodySchema(), field))) {
                    mutations.add(new Mutation(
                            "admitted body " + Targets.describe(field) + " = " + abbreviate(value.toString()),
                            r -> editJson(r, tree -> Targets.set(tree, field, value))
                                    .withMethod(r.method(), statuses)));
                }
            }
        }
        return mutations;
    }

    static List<Mutation> body(Operation operation, int bodyBytesMax) {
        List<Mutation> mutations = new ArrayList<>();
        if (operation.bodySchema() == null) {
            mutations.add(new Mutation(
                    "unexpected JSON body",
                    r -> r.withHeader("Content-Type", "application/json")
                            .withBody("{\"a\":1}".getBytes(StandardCharsets.UTF_8))));
            mutations.add(new Mutation("unexpected binary body", r -> r.withBody(new byte[] {0, 1, 2, (byte) 0xff})));
            return mutations;
        }
        for (String text : BAD_JSON) {
            mutations.add(new Mutation(
                    "body " + abbreviate(text), r -> r.withBody(text.getBytes(StandardCharsets.ISO_8859_1))));
        }
        mutations.add(new Mutation("no body", r -> r.withBody(null)));
        mutations.add(new Mutation(
                "body with BOM",
                r -> r.withBody(concat(new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf}, r.body()))));
        mutations.add(new Mutation(
                "body in UTF-16",
                r -> r.withBody(new String(r.body(), StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_16))));
        mutations.add(new Mutation(
                "deep nesting (1000)", r -> r.withBody(("[".repeat(1000) + "]".repeat(1000)).getBytes())));
        mutations.add(new Mutation(
                "deep nesting in a field",
                r -> r.withBody(("{\"x\":" + "{\"y\":".repeat(500) + "1" + "}".repeat(501)).getBytes())));
        mutations.add(new Mutation("oversized body", r -> r.withBody(padded(r.body(), bodyBytesMax + 1))));
        mutations.add(new Mutation(
                "oversized chunked body",
                r -> r.withHeader("Transfer-Encoding", "chunked")
                        .withBody(chunked(padded(r.body(), bodyBytesMax + 1)))));
        mutations.add(new Mutation(
                "chunked body",
                r -> r.withHeader("Transfer-Encoding", "chunked").withBody(chunked(r.body()))));
        mutations.add(new Mutation(
                "Content-Length shorter than the body",
                r -> r.withHeader(
                        "Content-Length", Integer.toString(Math.max(0, r.body() == null ? 0 : r.body().length / 2)))));
        mutations.add(new Mutation(
                "extra field", r -> editJson(r, tree -> ((ObjectNode) tree).put("unexpected", "x"))));
        mutations.add(new Mutation(
                "every field null",
                r -> editJson(r, tree -> tree.propertyNames().forEach(name -> ((ObjectNode) tree).putNull(name)))));
        mutations.add(new Mutation("empty object", r -> r.withBody("{}".getBytes())));
        for (List<Object> field : Targets.fieldPaths(operation.bodySchema())) {
            String name = Targets.describe(field);
            mutations.add(new Mutation(
                    "body " + name + " missing", r -> editJson(r, tree -> Targets.remove(tree, field))));
            for (JsonNode value : badValues()) {
                mutations.add(new Mutation(
                        "body " + name + " = " + abbreviate(value.toString()),
                        r -> editJson(r, tree -> Targets.set(tree, field, value))));
            }
            for (String raw : List.of("1e400", "123456789012345678901234567890", "-0", "0.0000001", "9".repeat(100))) {
                mutations.add(new Mutation("body " + name + " = " + abbreviate(raw), r -> rawValue(r, field, raw)));
            }
            mutations.add(new Mutation(
                    "body " + name + " has invalid UTF-8", r -> rawValue(r, field, "\"a" + INVALID_UTF8_BYTES + "\"")));
            mutations.add(new Mutation("body " + name + " has a raw NUL", r -> rawValue(r, field, "\"a\u0000b\"")));
        }
        return mutations;
    }

    static List<JsonNode> badValues() {
        return List.of(
                NODES.stringNode("text"),
                NODES.stringNode(""),
                NODES.numberNode(1),
                NODES.numberNode(-1),
                NODES.numberNode(0),
                NODES.numberNode(1.5),
                NODES.booleanNode(true),
                NODES.nullNode(),
                NODES.arrayNode(),
                NODES.objectNode(),
                NODES.numberNode(Long.MAX_VALUE),
                NODES.numberNode(Long.MIN_VALUE),
                NODES.stringNode("nul\u0000and\u0007bell"),
                NODES.stringNode("\u202eright-to-left\ud83d\ude00"),
                NODES.stringNode("s".repeat(3000)),
                NODES.arrayNode().add(NODES.objectNode()));
    }

    /** Wrong methods on a documented path; HEAD and OPTIONS are left to HTTP's own rules. */
    static List<FuzzRequest> methods(String path, Set<String> documented, String target) {
        List<FuzzRequest> requests = new ArrayList<>();
        for (String method : EXTRA_METHODS) {
            if (!documented.contains(method)) {
                requests.add(new FuzzRequest(
                        path,
                        "wrong method " + method,
                        method,
                        target,
                        List.of(Map.entry("Accept", "*/*")),
                        null,
                        WRONG_METHOD_STATUSES));
            }
        }
        return requests;
    }

    private static FuzzRequest editJson(FuzzRequest request, java.util.function.Consumer<JsonNode> edit) {
        JsonNode tree;
        try {
            tree = JSON.readTree(request.body());
        } catch (JacksonException | IllegalArgumentException e) {
            return request;
        }
        if (tree == null || !tree.isObject()) {
            return request;
        }
        edit.accept(tree);
        return request.withBody(JSON.writeValueAsBytes(tree));
    }

    /** Puts text that is not a JSON value Jackson would write (huge numbers, raw bytes) in a field's place. */
    private static FuzzRequest rawValue(FuzzRequest request, List<Object> field, String raw) {
        String marker = "\"__fuzz_marker__\"";
        FuzzRequest marked = editJson(request, tree -> Targets.set(tree, field, NODES.stringNode("__fuzz_marker__")));
        if (marked == request) {
            return request;
        }
        String text = new String(marked.body(), StandardCharsets.ISO_8859_1);
        return request.withBody(text.replace(marker, raw).getBytes(StandardCharsets.ISO_8859_1));
    }

    static String withQuery(String target, String name, String value) {
        String[] parts = target.split("\\?", 2);
        StringBuilder query = new StringBuilder();
        if (parts.length == 2) {
            for (String pair : parts[1].split("&")) {
                if (!pair.isEmpty() && !pair.split("=", 2)[0].equals(name)) {
                    query.append(query.isEmpty() ? "" : "&").append(pair);
                }
            }
        }
        query.append(query.isEmpty() ? "" : "&").append(name).append(value == null ? "" : "=" + value);
        return parts[0] + "?" + query;
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static byte[] padded(byte[] body, int bytes) {
        byte[] start = body == null || body.length == 0 ? "{}".getBytes() : body;
        byte[] out = new byte[Math.max(bytes, start.length)];
        java.util.Arrays.fill(out, (byte) ' ');
        System.arraycopy(start, 0, out, out.length - start.length, start.length);
        return out;
    }

    private static byte[] chunked(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] content = body == null ? new byte[0] : body;
        for (int at = 0; at < content.length; at += 8192) {
            int size = Math.min(8192, content.length - at);
            out.writeBytes((Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(content, at, size);
            out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] second = b == null ? new byte[0] : b;
        byte[] out = java.util.Arrays.copyOf(a, a.length + second.length);
        System.arraycopy(second, 0, out, a.length, second.length);
        return out;
    }

    static String abbreviate(String text) {
        String printable = text.replaceAll("[^\\x20-\\x7E]", "?");
        return printable.length() <= 40 ? printable : printable.substring(0, 40) + "…(" + text.length() + " chars)";
    }
}
