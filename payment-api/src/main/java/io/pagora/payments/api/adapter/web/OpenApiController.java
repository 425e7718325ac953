package io.pagora.payments.api.adapter.web;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Serves the hand-written OpenAPI 3.1 document ({@code classpath:openapi/openapi.yaml}) as
 * {@code application/yaml}; a plain static resource would go out as application/octet-stream.
 */
@RestController
public class OpenApiController {

    static final MediaType YAML = MediaType.parseMediaType("application/yaml");

    private final Resource document = new ClassPathResource("openapi/openapi.yaml");

    @GetMapping("/openapi.yaml")
    public ResponseEntity<Resource> document() {
        return ResponseEntity.ok().contentType(YAML).cacheControl(CacheControl.noCache()).body(document);
    }
}
