package io.pagora.testing.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Generates values that satisfy a (resolved) JSON schema, so that each malformed request breaks one
 * thing at a time and reaches the code behind the first check. Knows what the Pagora documents use:
 * type, enum, const, examples, minimum/maximum, minLength/maxLength, simple patterns, date formats,
 * minItems, required and optional properties.
 */
final class SchemaSamples {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** A generated array never holds more, whatever minItems says: the fuzz is about shape, not volume. */
    private static final int ARRAY_ITEMS_MAX = 3;

    private static final int DEPTH_MAX = 8;
    private static final int EXCLUDED_ATTEMPTS_MAX = 8;

    private final Random random;
    private final Map<String, String> knownProperties;

    /** @param knownProperties string values for body properties by name (existing accounts), used as given */
    SchemaSamples(Random random, Map<String, String> knownProperties) {
        this.random = random;
        this.knownProperties = knownProperties;
    }

    JsonNode valid(JsonNode schema) {
        return valid(schema, 0);
    }

    private JsonNode valid(JsonNode schema, int depth) {
        if (depth > DEPTH_MAX) {
            throw new IllegalStateException("schema nested deeper than " + DEPTH_MAX);
        }
        if (schema.has("const")) {
            return schema.get("const");
        }
        if (schema.has("enum")) {
            JsonNode values = schema.get("enum");
            return values.get(random.nextInt(values.size()));
        }
        if (schema.has("examples") && schema.get("examples").size() > 0) {
            return schema.get("examples").get(0);
        }
        return switch (typeOf(schema)) {
            case "integer" -> NODES.numberNode(integer(schema));
            case "number" -> NODES.numberNode(integer(schema) + 0.5);
            case "boolean" -> NODES.booleanNode(random.nextBoolean());
            case "array" -> array(schema, depth);
            case "object" -> object(schema, depth);
            default -> NODES.stringNode(string(schema));
        };
    }

    static String typeOf(JsonNode schema) {
        JsonNode type = schema.path("type");
        if (type.isArray()) {
            // [string, 'null']: the non-null one
            for (JsonNode each : type) {
                if (!"null".equals(each.asString())) {
                    return each.asString();
                }
            }
        }
        if (type.isString()) {
            return type.asString();
        }
        return schema.has("properties") ? "object" : "string";
    }

    private long integer(JsonNode schema) {
        long min = schema.path("minimum").asLong(0);
        long max = schema.path("maximum").asLong(Math.max(min, 0) + 1000);
        return min + (long) (random.nextDouble() * Math.min(1000, max - min));
    }

    String string(JsonNode schema) {
        if (schema.has("pattern")) {
            // A pattern's random value is the value "not" excludes (an all-zero id) about never; a few tries at most.
            for (int attempt = 0; attempt < EXCLUDED_ATTEMPTS_MAX; attempt++) {
                String value = new PatternSamples(random)
                        .matching(schema.get("pattern").asString());
                if (!excluded(schema, value)) {
                    return value;
                }
            }
            throw new IllegalStateException("no value of " + schema + " that its \"not\" admits");
        }
        String format = schema.path("format").asString("");
        if (format.equals("date")) {
            return "2026-11-21";
        }
        if (format.equals("date-time")) {
            return "2026-11-21T12:00:00Z";
        }
        int min = schema.path("minLength").asInt(1);
        int max = Math.max(min, Math.min(schema.path("maxLength").asInt(12), 12));
        StringBuilder text = new StringBuilder();
        int length = min + random.nextInt(max - min + 1);
        for (int i = 0; i < length; i++) {
            text.append((char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }

    /**
     * The boundary values the schema admits, to be sent as they are and never answered 400: an integer's minimum and
     * maximum; a pattern's lowest and highest value (all zeros, all {@code f}s), less what {@code not} excludes; a
     * plain string of its maxLength. Empty for what has no boundary worth sending (enums, objects, arrays).
     */
    static List<JsonNode> admitted(JsonNode schema) {
        List<JsonNode> values = new ArrayList<>();
        if (schema.has("const") || schema.has("enum")) {
            return values;
        }
        switch (typeOf(schema)) {
            case "integer" -> {
                if (schema.has("minimum")) {
                    values.add(NODES.numberNode(schema.get("minimum").asLong()));
                }
                if (schema.has("maximum")) {
                    values.add(NODES.numberNode(schema.get("maximum").asLong()));
                }
            }
            case "string" -> {
                if (schema.has("pattern")) {
                    String pattern = schema.get("pattern").asString();
                    for (String value : List.of(PatternSamples.lowest(pattern), PatternSamples.highest(pattern))) {
                        if (!excluded(schema, value)) {
                            values.add(NODES.stringNode(value));
                        }
                    }
                } else if (schema.has("maxLength") && !schema.has("format")) {
                    values.add(
                            NODES.stringNode("a".repeat(schema.get("maxLength").asInt())));
                }
            }
            default -> {
                // nothing: objects and arrays are reached through their fields
            }
        }
        return values;
    }

    /** Whether the schema's {@code not} (a const, or an enum) excludes {@code value}. */
    static boolean excluded(JsonNode schema, String value) {
        JsonNode not = schema.path("not");
        if (not.has("const")) {
            return not.get("const").asString().equals(value);
        }
        for (JsonNode each : not.path("enum")) {
            if (each.asString().equals(value)) {
                return true;
            }
        }
        return false;
    }

    private ArrayNode array(JsonNode schema, int depth) {
        ArrayNode array = NODES.arrayNode();
        int size = Math.min(ARRAY_ITEMS_MAX, Math.max(1, schema.path("minItems").asInt(1)));
        for (int i = 0; i < size; i++) {
            array.add(valid(schema.path("items"), depth + 1));
        }
        return array;
    }

    private ObjectNode object(JsonNode schema, int depth) {
        ObjectNode object = NODES.objectNode();
        // A known value is text: it stands for a string property only (an "ispb" known for a path is no integer field).
        schema.path("properties")
                .properties()
                .forEach(property -> object.set(
                        property.getKey(),
                        knownProperties.containsKey(property.getKey()) && "string".equals(typeOf(property.getValue()))
                                ? NODES.stringNode(knownProperties.get(property.getKey()))
                                : valid(property.getValue(), depth + 1)));
        return object;
    }
}
