package io.pagora.payments.api.adapter.web;

import io.pagora.service.web.ConcreteContentTypeFilter;
import io.pagora.service.web.EdgeProblems;
import io.pagora.service.web.ProblemException;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a JSON request body under a hard size limit, before anything else looks at it. The body is
 * read by hand (not through a message converter) so that every failure — wrong media type, too
 * large, not JSON — becomes a specific problem, and so that a chunked body without Content-Length is
 * cut off at the limit rather than buffered whole.
 */
final class JsonBodies {

    /** Strict JSON: duplicate keys and trailing garbage are errors, nesting and numbers are bounded. */
    private static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(16)
                            .maxNumberLength(64)
                            .maxStringLength(1 << 20)
                            .build())
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private JsonBodies() {}

    static JsonNode read(HttpServletRequest request, int maxBytes) {
        Object rejected = request.getAttribute(ConcreteContentTypeFilter.REJECTED_CONTENT_TYPE);
        if (rejected != null) {
            throw new ProblemException(
                    EdgeProblems.UNSUPPORTED_MEDIA_TYPE,
                    "Content-Type \"" + JsonFields.abbreviate(rejected.toString())
                            + "\" is not one concrete media type; send application/json");
        }
        checkMediaType(request.getContentType());
        long declared = request.getContentLengthLong();
        if (declared > maxBytes) {
            throw tooLarge(maxBytes, declared + " bytes");
        }
        byte[] body;
        try (InputStream in = request.getInputStream()) {
            body = in.readNBytes(maxBytes + 1);
        } catch (IOException e) {
            throw new ProblemException(
                    HttpProblems.MALFORMED_JSON, "the request body could not be read: " + e.getMessage());
        }
        if (body.length > maxBytes) {
            throw tooLarge(maxBytes, "more");
        }
        if (body.length == 0) {
            throw new ProblemException(
                    HttpProblems.MALFORMED_JSON, "the request body is empty; a JSON object is expected");
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(body);
        } catch (JacksonException e) {
            throw new ProblemException(
                    HttpProblems.MALFORMED_JSON, "the request body is not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new ProblemException(HttpProblems.MALFORMED_JSON, "the request body must be a JSON object");
        }
        return root;
    }

    private static void checkMediaType(String contentType) {
        if (contentType == null) {
            throw new ProblemException(
                    EdgeProblems.UNSUPPORTED_MEDIA_TYPE, "Content-Type is missing; send application/json");
        }
        MediaType type;
        try {
            type = MediaType.parseMediaType(contentType);
        } catch (InvalidMediaTypeException e) {
            throw new ProblemException(
                    EdgeProblems.UNSUPPORTED_MEDIA_TYPE, "Content-Type is not a media type; send application/json");
        }
        boolean json =
                MediaType.APPLICATION_JSON.isCompatibleWith(type) && !type.isWildcardType() && !type.isWildcardSubtype()
                        || "application".equals(type.getType())
                                && type.getSubtype().endsWith("+json");
        if (!json) {
            throw new ProblemException(
                    EdgeProblems.UNSUPPORTED_MEDIA_TYPE,
                    "Content-Type " + type + " is not supported; send application/json");
        }
        Charset charset;
        try {
            charset = type.getCharset();
        } catch (RuntimeException e) {
            throw new ProblemException(EdgeProblems.UNSUPPORTED_MEDIA_TYPE, "unknown charset; JSON is UTF-8");
        }
        if (charset != null && !StandardCharsets.UTF_8.equals(charset)) {
            throw new ProblemException(
                    EdgeProblems.UNSUPPORTED_MEDIA_TYPE, "charset " + charset + " is not supported; JSON is UTF-8");
        }
    }

    private static ProblemException tooLarge(int maxBytes, String got) {
        return new ProblemException(
                EdgeProblems.PAYLOAD_TOO_LARGE, "the request body may be at most " + maxBytes + " bytes, got " + got);
    }
}
