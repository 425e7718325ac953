package io.pagora.payments.api.adapter.web;

import com.fasterxml.jackson.annotation.JsonView;
import java.io.IOException;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ResolvableType;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import tools.jackson.core.JsonEncoding;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.ser.FilterProvider;

/**
 * Spring MVC's JSON converter, on the application's mapper, that writes a {@link BatchResult} in UTF-8 by hand
 * ({@link BatchResultJson}) and everything else through Jackson. It stays the JSON converter itself, so content
 * negotiation and the response's headers are Jackson's converter's, unchanged; only the body's bytes come from
 * elsewhere, and they are the same bytes.
 */
public final class BatchResultJsonConverter extends JacksonJsonHttpMessageConverter {

    public BatchResultJsonConverter(JsonMapper mapper) {
        super(mapper);
    }

    @Override
    protected void writeInternal(
            Object object,
            @Nullable ResolvableType resolvableType,
            HttpOutputMessage outputMessage,
            @Nullable Map<String, Object> hints)
            throws IOException {
        if (object instanceof BatchResult result
                && !viewOrFilter(hints)
                && getJsonEncoding(outputMessage.getHeaders().getContentType()) == JsonEncoding.UTF8
                && BatchResultJson.handWritable(result)) {
            BatchResultJson.text(result).writeTo(outputMessage.getBody());
            return;
        }
        super.writeInternal(object, resolvableType, outputMessage, hints);
    }

    /** A JSON view or filter (none is used here) changes what Jackson writes: then Jackson writes it. */
    private static boolean viewOrFilter(@Nullable Map<String, Object> hints) {
        return hints != null
                && (hints.containsKey(JsonView.class.getName()) || hints.containsKey(FilterProvider.class.getName()));
    }
}
