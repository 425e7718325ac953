package io.pagora.payments.api.adapter.web;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import tools.jackson.databind.JsonNode;

/**
 * Typed access to the fields of one JSON object, each failure a specific problem naming the field.
 * JSON null counts as absent. Unknown fields are ignored (forward compatibility).
 */
final class JsonFields {

    private final JsonNode object;

    JsonFields(JsonNode object) {
        this.object = object;
    }

    JsonNode node(String name) {
        JsonNode node = object.get(name);
        return node == null || node.isNull() ? null : node;
    }

    String requiredString(String name) {
        String value = optionalString(name);
        if (value == null) {
            throw missing(name);
        }
        return value;
    }

    String optionalString(String name) {
        JsonNode node = node(name);
        if (node == null) {
            return null;
        }
        if (!node.isString()) {
            throw invalid(RefusalReason.INVALID_FIELD, name, "must be a string, got " + typeOf(node));
        }
        return node.stringValue();
    }

    /** A ledger account id: 32 hexadecimal digits, as the API returns them. */
    Id128 accountId(String name) {
        JsonNode node = node(name);
        if (node == null) {
            throw missing(name);
        }
        if (!node.isString()) {
            throw invalid(
                    RefusalReason.INVALID_ACCOUNT_ID,
                    name,
                    "must be a string of 32 hexadecimal digits, got " + typeOf(node));
        }
        return parseAccountId(node.stringValue(), name);
    }

    static Id128 parseAccountId(String text, String field) {
        if (!Id128.isHexDigits32(text)) {
            throw new RefusalException(Refusal.ofField(
                    RefusalReason.INVALID_ACCOUNT_ID,
                    field,
                    field + " must be 32 hexadecimal digits, got \"" + abbreviate(text) + "\""));
        }
        return Id128.parse(text);
    }

    /** An amount in centavos: a JSON integer. Range checks belong to the caller's rules. */
    long amountCentavos(String name) {
        JsonNode node = node(name);
        if (node == null) {
            throw missing(name);
        }
        if (!node.isNumber()) {
            throw invalid(
                    RefusalReason.INVALID_FIELD, name, "must be an integer number of centavos, got " + typeOf(node));
        }
        if (!node.isIntegralNumber()) {
            throw invalid(RefusalReason.INVALID_AMOUNT, name, "must be a whole number of centavos, got " + node);
        }
        if (!node.canConvertToLong()) {
            throw node.bigIntegerValue().signum() < 0
                    ? invalid(RefusalReason.INVALID_AMOUNT, name, "must be positive, got " + node)
                    : invalid(RefusalReason.AMOUNT_ABOVE_LIMIT, name, "is far above the limit: " + node);
        }
        return node.longValue();
    }

    /** An optional JSON integer in {@code min..max}; null when absent. */
    Long optionalLong(String name, long min, long max) {
        JsonNode node = node(name);
        if (node == null) {
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < min || node.longValue() > max) {
            throw invalid(
                    RefusalReason.INVALID_FIELD,
                    name,
                    "must be an integer from " + min + " to " + max + ", got " + abbreviate(node.toString()));
        }
        return node.longValue();
    }

    long requiredLong(String name, long min, long max) {
        Long value = optionalLong(name, min, max);
        if (value == null) {
            throw missing(name);
        }
        return value;
    }

    RefusalException missing(String name) {
        return new RefusalException(Refusal.ofField(RefusalReason.MISSING_FIELD, name, name + " is required"));
    }

    RefusalException invalid(RefusalReason type, String name, String what) {
        return new RefusalException(Refusal.ofField(type, name, name + " " + what));
    }

    /** Free text: no control characters, at most {@code maxChars} code points. */
    static boolean isPlainText(String text, int maxChars) {
        return text.codePointCount(0, text.length()) <= maxChars
                && text.codePoints().noneMatch(Character::isISOControl);
    }

    /** 1 to {@code maxChars} visible ASCII characters. */
    static boolean isVisibleAscii(String text, int maxChars) {
        return !text.isEmpty() && text.length() <= maxChars && text.chars().allMatch(c -> c >= 0x21 && c <= 0x7E);
    }

    static String typeOf(JsonNode node) {
        if (node.isString()) {
            return "a string";
        }
        if (node.isNumber()) {
            return "a number";
        }
        if (node.isBoolean()) {
            return "a boolean";
        }
        if (node.isArray()) {
            return "an array";
        }
        return node.isObject() ? "an object" : "null";
    }

    static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }
}
