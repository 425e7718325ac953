package io.pagora.payments.api.adapter.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Serves the hand-written OpenAPI 3.1 document ({@code classpath:openapi/openapi.yaml}) as
 * {@code application/yaml}; a plain static resource would go out as application/octet-stream. As bytes, not as a
 * Resource: Spring serves a Resource in ranges, and a Range beyond it was answered 416 with the whole document as its
 * body; the document is small, so a Range is ignored (RFC 9110 allows it) and the answer is always the whole of it.
 */
@RestController
public class OpenApiController {

    static final MediaType YAML = MediaType.parseMediaType("application/yaml");

    private final byte[] document;

    public OpenApiController() {
        try (InputStream in = new ClassPathResource("openapi/openapi.yaml").getInputStream()) {
            document = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("payment-api's OpenAPI document is missing from its classpath", e);
        }
    }

    @GetMapping("/openapi.yaml")
    public ResponseEntity<byte[]> document() {
        return ResponseEntity.ok()
                .contentType(YAML)
                .cacheControl(CacheControl.noCache())
                .body(document);
    }
}
