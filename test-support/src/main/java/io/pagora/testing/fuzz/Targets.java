package io.pagora.testing.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Request targets from path templates, and addressing fields inside a JSON body by path. */
final class Targets {

    /** Fields are mutated this deep into a body at most (batch → item → field is 3). */
    private static final int FIELD_DEPTH_MAX = 3;

    private Targets() {}

    /** The template with each {@code {name}} replaced by its value (already encoded), {@code replaced} by {@code raw}. */
    static String expand(String template, Map<String, String> values, String replaced, String raw) {
        String target = template;
        for (Map.Entry<String, String> value : values.entrySet()) {
            String text = value.getKey().equals(replaced) ? raw : value.getValue();
            target = target.replace("{" + value.getKey() + "}", text);
        }
        return target;
    }

    static String queryOf(String target) {
        int question = target.indexOf('?');
        return question < 0 ? "" : target.substring(question);
    }

    /** Every property of the schema, and of its nested objects and the first item of its arrays. */
    static List<List<Object>> fieldPaths(JsonNode schema) {
        List<List<Object>> paths = new ArrayList<>();
        collect(schema, new ArrayList<>(), paths);
        return paths;
    }

    private static void collect(JsonNode schema, List<Object> prefix, List<List<Object>> paths) {
        if (prefix.size() >= FIELD_DEPTH_MAX) {
            return;
        }
        schema.path("properties").properties().forEach(property -> {
            List<Object> path = new ArrayList<>(prefix);
            path.add(property.getKey());
            paths.add(List.copyOf(path));
            JsonNode child = property.getValue();
            if ("array".equals(SchemaSamples.typeOf(child))) {
                path.add(0);
                collect(child.path("items"), path, paths);
            } else {
                collect(child, path, paths);
            }
        });
    }

    /** The schema of the field at {@code path} (as {@link #fieldPaths} names it); a missing node when there is none. */
    static JsonNode schemaAt(JsonNode schema, List<Object> path) {
        JsonNode node = schema;
        for (Object step : path) {
            node = step instanceof Integer
                    ? node.path("items")
                    : node.path("properties").path((String) step);
        }
        return node;
    }

    static String describe(List<Object> path) {
        StringBuilder text = new StringBuilder();
        for (Object step : path) {
            text.append(step instanceof Integer index ? "[" + index + "]" : (text.isEmpty() ? "" : ".") + step);
        }
        return text.toString();
    }

    static void set(JsonNode tree, List<Object> path, JsonNode value) {
        JsonNode parent = parent(tree, path);
        Object last = path.getLast();
        if (parent instanceof ObjectNode object && last instanceof String name) {
            object.set(name, value);
        } else if (parent instanceof ArrayNode array && last instanceof Integer index && index < array.size()) {
            array.set(index, value);
        }
    }

    static void remove(JsonNode tree, List<Object> path) {
        if (parent(tree, path) instanceof ObjectNode object && path.getLast() instanceof String name) {
            object.remove(name);
        }
    }

    private static JsonNode parent(JsonNode tree, List<Object> path) {
        JsonNode node = tree;
        for (Object step : path.subList(0, path.size() - 1)) {
            node = step instanceof Integer index ? node.path(index) : node.path((String) step);
        }
        return node;
    }
}
