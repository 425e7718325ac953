package io.pagora.testing.fuzz;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The operations of an OpenAPI 3.1 document (parsed to a Jackson tree), with local {@code $ref}s resolved. */
public final class OpenApiDocument {

    static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch");

    /** A parameter: {@code in} is path, query or header. */
    public record Parameter(String name, String in, boolean required, JsonNode schema) {}

    /** One documented operation; {@code bodySchema} is null when it takes no body. */
    public record Operation(
            String method, String path, List<Parameter> parameters, JsonNode bodySchema, Set<Integer> statuses) {

        public String key() {
            return method + " " + path;
        }

        public List<Parameter> in(String where) {
            return parameters.stream()
                    .filter(parameter -> parameter.in().equals(where))
                    .toList();
        }
    }

    private final JsonNode root;

    public OpenApiDocument(JsonNode root) {
        this.root = root;
    }

    public List<Operation> operations() {
        List<Operation> operations = new ArrayList<>();
        for (Map.Entry<String, JsonNode> path : root.path("paths").properties()) {
            for (String method : METHODS) {
                JsonNode operation = path.getValue().get(method);
                if (operation != null) {
                    operations.addAll(
                            alternatives(operation(method.toUpperCase(Locale.ROOT), path.getKey(), operation)));
                }
            }
        }
        return operations;
    }

    /**
     * An operation whose body is one of several schemas ({@code oneOf}: a payment naming its payee by account, by key
     * or by BR Code) is fuzzed as one operation per alternative, each body valid for its own: a sample mixing them
     * would be valid for none.
     */
    private List<Operation> alternatives(Operation operation) {
        JsonNode body = operation.bodySchema();
        if (body == null || !body.has("oneOf")) {
            return List.of(operation);
        }
        List<Operation> each = new ArrayList<>();
        for (JsonNode alternative : body.get("oneOf")) {
            each.add(new Operation(
                    operation.method(),
                    operation.path(),
                    operation.parameters(),
                    schema(alternative),
                    operation.statuses()));
        }
        return each;
    }

    /** The methods a path is documented with, upper case. */
    Set<String> methodsOf(String path) {
        Set<String> methods = new LinkedHashSet<>();
        for (String method : METHODS) {
            if (root.path("paths").path(path).has(method)) {
                methods.add(method.toUpperCase(Locale.ROOT));
            }
        }
        return methods;
    }

    private Operation operation(String method, String path, JsonNode operation) {
        List<Parameter> parameters = new ArrayList<>();
        for (JsonNode parameter : operation.path("parameters")) {
            JsonNode resolved = resolve(parameter);
            parameters.add(new Parameter(
                    resolved.path("name").asString(),
                    resolved.path("in").asString(),
                    resolved.path("required").asBoolean(false),
                    schema(resolved.path("schema"))));
        }
        JsonNode body = resolve(operation.path("requestBody"))
                .path("content")
                .path("application/json")
                .get("schema");
        Set<Integer> statuses = new LinkedHashSet<>();
        for (String status : operation.path("responses").propertyNames()) {
            statuses.add(Integer.parseInt(status));
        }
        return new Operation(
                method, path, List.copyOf(parameters), body == null ? null : schema(body), Set.copyOf(statuses));
    }

    /** A schema with every {@code $ref} resolved and every {@code allOf} merged into one object schema. */
    JsonNode schema(JsonNode schema) {
        JsonNode resolved = resolve(schema);
        if (!resolved.isObject()) {
            return resolved;
        }
        ObjectNode merged = JsonNodeFactory.instance.objectNode();
        for (JsonNode part : resolved.path("allOf")) {
            mergeInto(merged, schema(part));
        }
        ObjectNode self = ((ObjectNode) resolved).deepCopy();
        self.remove("allOf");
        JsonNode properties = self.remove("properties");
        mergeInto(merged, self);
        if (properties != null) {
            ObjectNode resolvedProperties = JsonNodeFactory.instance.objectNode();
            properties.properties().forEach(p -> resolvedProperties.set(p.getKey(), schema(p.getValue())));
            mergeInto(merged, JsonNodeFactory.instance.objectNode().set("properties", resolvedProperties));
        }
        JsonNode items = merged.get("items");
        if (items != null) {
            merged.set("items", schema(items));
        }
        return merged;
    }

    private static void mergeInto(ObjectNode target, JsonNode part) {
        for (Map.Entry<String, JsonNode> entry : part.properties()) {
            JsonNode existing = target.get(entry.getKey());
            if (existing instanceof ObjectNode existingObject
                    && entry.getValue().isObject()) {
                existingObject.setAll((ObjectNode) entry.getValue());
            } else if (existing != null
                    && existing.isArray()
                    && entry.getValue().isArray()) {
                Set<JsonNode> union = new LinkedHashSet<>();
                existing.forEach(union::add);
                entry.getValue().forEach(union::add);
                target.set(entry.getKey(), JsonNodeFactory.instance.arrayNode().addAll(union));
            } else {
                target.set(entry.getKey(), entry.getValue());
            }
        }
    }

    /** Follows local references ({@code #/components/...}); bounded, so a reference cycle fails loudly. */
    private JsonNode resolve(JsonNode node) {
        JsonNode current = node;
        for (int depth = 0; depth < 16; depth++) {
            JsonNode ref = current.get("$ref");
            if (ref == null) {
                return current;
            }
            current = root.at(ref.asString().substring(1));
            if (current.isMissingNode()) {
                throw new IllegalStateException("unresolvable $ref " + ref.asString());
            }
        }
        throw new IllegalStateException("$ref chain longer than 16 at " + node);
    }
}
