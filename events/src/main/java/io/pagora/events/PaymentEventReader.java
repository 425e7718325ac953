package io.pagora.events;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads a {@link PaymentEvent} from JSON with Jackson's streaming parser, as Jackson's databind reads it for the
 * annotated records (PaymentEventCodecTest holds the two to the same events and the same refusals): the first
 * {@code type} with a value names the subtype, wherever it stands; fields of other subtypes and unknown fields are
 * skipped; the last of repeated fields wins; each value is read by {@link Scalars} as databind reads it; a null or
 * absent amount is refused. Every refusal is an {@link IllegalArgumentException}.
 */
final class PaymentEventReader {

    private static final JsonFactory JSON = new JsonFactory();
    private static final String NOT_AN_EVENT = Scalars.NOT_AN_EVENT;

    private static final RejectionReason[] REJECTION_REASONS = RejectionReason.values();
    private static final ReturnReason[] RETURN_REASONS = ReturnReason.values();

    private enum Kind {
        REQUESTED,
        SETTLED,
        REJECTED,
        EXPIRED
    }

    private PaymentEventReader() {}

    static PaymentEvent read(byte[] json) {
        if (json == null) {
            throw new IllegalArgumentException(NOT_AN_EVENT + "no bytes (null)");
        }
        PaymentEvent event;
        try {
            event = readFields(json);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(NOT_AN_EVENT + e.getOriginalMessage(), e);
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            // An instant out of range, an arithmetic overflow: bad input all the same.
            throw new IllegalArgumentException(NOT_AN_EVENT + e, e);
        }
        if (event.paymentId() == null
                || event.payerAccountId() == null
                || event.payeeAccountId() == null
                || event.acceptedAt() == null) {
            throw new IllegalArgumentException(
                    "payment event lacks required fields: " + new String(json, StandardCharsets.UTF_8));
        }
        return event;
    }

    private static PaymentEvent readFields(byte[] json) {
        try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), json)) {
            JsonToken first = parser.nextToken();
            if (first == JsonToken.START_ARRAY) {
                return wrapped(parser);
            }
            if (first != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException(NOT_AN_EVENT + "not a JSON object but " + first);
            }
            // The writer puts the type first: then one pass reads the event.
            if (parser.nextToken() == JsonToken.PROPERTY_NAME && "type".equals(parser.currentName())) {
                parser.nextToken();
                String typeId = parser.getValueAsString();
                if (typeId != null) {
                    Kind kind = kindOf(typeId);
                    parser.nextToken();
                    return ended(parser, fields(parser, kind));
                }
            }
        }
        Kind kind = kindOf(typeIdAnywhere(json));
        try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), json)) {
            parser.nextToken();
            parser.nextToken();
            return ended(parser, fields(parser, kind));
        }
    }

    /** Databind also reads an event wrapped with its type id in an array: {@code ["PaymentSettled",{...}]}. */
    private static PaymentEvent wrapped(JsonParser parser) {
        JsonToken token = parser.nextToken();
        String typeId = token != null && token.isScalarValue() ? parser.getValueAsString() : null;
        if (typeId == null) {
            throw new IllegalArgumentException(NOT_AN_EVENT + "an array without a type id");
        }
        Kind kind = kindOf(typeId);
        if (parser.nextToken() != JsonToken.START_OBJECT) {
            throw new IllegalArgumentException(NOT_AN_EVENT + "a type id without an object");
        }
        parser.nextToken();
        PaymentEvent event = fields(parser, kind);
        if (parser.nextToken() != JsonToken.END_ARRAY) {
            throw new IllegalArgumentException(NOT_AN_EVENT + "an array with more than a type id and an object");
        }
        return ended(parser, event);
    }

    /** The event, if nothing but whitespace follows it. */
    private static PaymentEvent ended(JsonParser parser, PaymentEvent event) {
        JsonToken trailing = parser.nextToken();
        if (trailing != null) {
            throw new IllegalArgumentException(NOT_AN_EVENT + "trailing token " + trailing);
        }
        return event;
    }

    /** The first {@code type} with a scalar value: databind's type id when it is not the first field. */
    private static String typeIdAnywhere(byte[] json) {
        try (JsonParser parser = JSON.createParser(ObjectReadContext.empty(), json)) {
            parser.nextToken();
            for (JsonToken token = parser.nextToken(); token == JsonToken.PROPERTY_NAME; token = parser.nextToken()) {
                String name = parser.currentName();
                parser.nextToken();
                if ("type".equals(name)) {
                    String typeId = parser.getValueAsString();
                    if (typeId != null) {
                        return typeId;
                    }
                }
                parser.skipChildren();
            }
        }
        throw new IllegalArgumentException(NOT_AN_EVENT + "missing type id property 'type'");
    }

    private static Kind kindOf(String typeId) {
        return switch (typeId) {
            case "PaymentRequested" -> Kind.REQUESTED;
            case "PaymentSettled" -> Kind.SETTLED;
            case "PaymentRejected" -> Kind.REJECTED;
            case "PaymentExpired" -> Kind.EXPIRED;
            default -> throw new IllegalArgumentException(NOT_AN_EVENT + "unknown type '" + typeId + "'");
        };
    }

    /**
     * The event's fields, from the parser's current token (a field name or the object's end) to the object's end,
     * every {@code type} field skipped (the caller read the type id).
     */
    private static PaymentEvent fields(JsonParser parser, Kind kind) {
        String paymentId = null;
        String payerAccountId = null;
        String payeeAccountId = null;
        long amountCentavos = 0;
        boolean amountSeen = false;
        String currency = null;
        String description = null;
        String endToEndId = null;
        RejectionReason reason = null;
        String detail = null;
        Instant acceptedAt = null;
        Instant occurredAt = null;
        ReturnOf returnOf = null;
        boolean requested = kind == Kind.REQUESTED;
        boolean rejected = kind == Kind.REJECTED;
        JsonToken token = parser.currentToken();
        // Every pass consumes at least one token of a bounded input.
        for (; token == JsonToken.PROPERTY_NAME; token = parser.nextToken()) {
            String name = parser.currentName();
            parser.nextToken();
            switch (name) {
                case "paymentId" -> paymentId = Scalars.string(parser);
                case "payerAccountId" -> payerAccountId = Scalars.string(parser);
                case "payeeAccountId" -> payeeAccountId = Scalars.string(parser);
                case "amountCentavos" -> {
                    amountCentavos = Scalars.primitiveLong(parser, name);
                    amountSeen = true;
                }
                case "endToEndId" -> endToEndId = Scalars.string(parser);
                case "acceptedAt" -> acceptedAt = Scalars.instant(parser);
                case "returnOf" -> returnOf = returnOf(parser);
                case "currency" -> currency = requested ? Scalars.string(parser) : skip(parser, null);
                case "description" -> description = requested ? Scalars.string(parser) : skip(parser, null);
                case "occurredAt" -> occurredAt = requested ? skip(parser, null) : Scalars.instant(parser);
                case "reason" -> reason = rejected ? rejectionReason(parser) : skip(parser, null);
                case "detail" -> detail = rejected ? Scalars.string(parser) : skip(parser, null);
                default -> parser.skipChildren();
            }
        }
        if (token != JsonToken.END_OBJECT) {
            throw new IllegalArgumentException(NOT_AN_EVENT + "unexpected " + token);
        }
        if (!amountSeen) {
            throw new IllegalArgumentException(NOT_AN_EVENT + "missing amountCentavos, a long");
        }
        return switch (kind) {
            case REQUESTED ->
                new PaymentRequested(
                        paymentId,
                        payerAccountId,
                        payeeAccountId,
                        amountCentavos,
                        currency,
                        description,
                        endToEndId,
                        acceptedAt,
                        returnOf);
            case SETTLED ->
                new PaymentSettled(
                        paymentId,
                        payerAccountId,
                        payeeAccountId,
                        amountCentavos,
                        acceptedAt,
                        occurredAt,
                        returnOf,
                        endToEndId);
            case REJECTED ->
                new PaymentRejected(
                        paymentId,
                        payerAccountId,
                        payeeAccountId,
                        amountCentavos,
                        reason,
                        detail,
                        acceptedAt,
                        occurredAt,
                        returnOf,
                        endToEndId);
            case EXPIRED ->
                new PaymentExpired(
                        paymentId,
                        payerAccountId,
                        payeeAccountId,
                        amountCentavos,
                        acceptedAt,
                        occurredAt,
                        returnOf,
                        endToEndId);
        };
    }

    private static <T> T skip(JsonParser parser, T none) {
        parser.skipChildren();
        return none;
    }

    private static ReturnOf returnOf(JsonParser parser) {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        if (token != JsonToken.START_OBJECT) {
            throw new IllegalArgumentException(NOT_AN_EVENT + "returnOf is an object, not " + token);
        }
        String originalPaymentId = null;
        long originalAmountCentavos = 0;
        boolean amountSeen = false;
        ReturnReason reason = null;
        // Every pass consumes at least one token of a bounded input.
        for (token = parser.nextToken(); token == JsonToken.PROPERTY_NAME; token = parser.nextToken()) {
            String name = parser.currentName();
            parser.nextToken();
            switch (name) {
                case "originalPaymentId" -> originalPaymentId = Scalars.string(parser);
                case "originalAmountCentavos" -> {
                    originalAmountCentavos = Scalars.primitiveLong(parser, name);
                    amountSeen = true;
                }
                case "reason" -> reason = returnReason(parser);
                default -> parser.skipChildren();
            }
        }
        if (!amountSeen) {
            throw new IllegalArgumentException(NOT_AN_EVENT + "missing originalAmountCentavos, a long");
        }
        return new ReturnOf(originalPaymentId, originalAmountCentavos, reason);
    }

    private static RejectionReason rejectionReason(JsonParser parser) {
        int index = Scalars.enumIndex(parser, REJECTION_REASONS, "RejectionReason");
        return index < 0 ? null : REJECTION_REASONS[index];
    }

    private static ReturnReason returnReason(JsonParser parser) {
        int index = Scalars.enumIndex(parser, RETURN_REASONS, "ReturnReason");
        return index < 0 ? null : RETURN_REASONS[index];
    }
}
