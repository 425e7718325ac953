package io.pagora.payments.api.adapter.web;

import io.pagora.events.json.JsonText;
import io.pagora.kernel.Check;
import java.util.List;
import java.util.Map;

/**
 * A {@link BatchResult} as the bytes Jackson writes for it with the application's mapper (members in their declared
 * order, an item's absent members left out, instants as ISO-8601, a problem's members in its map's order), written by
 * hand: serializing the batch's answer through Jackson's databind took a measurable share of payment-api's CPU.
 * BatchResultJsonTest holds the two to the same bytes.
 */
final class BatchResultJson {

    /** The counts and brackets: the buffer's first size beside the items. */
    private static final int HEAD_BYTES = 128;
    /** About what an accepted item takes: the buffer's first size per item. */
    private static final int ITEM_BYTES_TYPICAL = 160;

    private BatchResultJson() {}

    /**
     * Whether every problem member is a value this writer writes as Jackson does: text, an int or a long (as
     * {@link Problems#embedded} puts them), or null.
     */
    static boolean handWritable(BatchResult result) {
        for (BatchResult.Item item : result.results()) {
            if (item.problem() == null) {
                continue;
            }
            for (Object value : item.problem().values()) {
                if (value != null
                        && !(value instanceof String)
                        && !(value instanceof Integer)
                        && !(value instanceof Long)) {
                    return false;
                }
            }
        }
        return true;
    }

    static byte[] write(BatchResult result) {
        return text(result).bytes();
    }

    /** The answer's text, to be written out without a copy. */
    static JsonText text(BatchResult result) {
        Check.that(handWritable(result), "a batch result's problems hold text and integers only: %s", result);
        List<BatchResult.Item> items = result.results();
        JsonText json = new JsonText(HEAD_BYTES + items.size() * ITEM_BYTES_TYPICAL);
        json.beginObject()
                .field("acceptedCount", result.acceptedCount())
                .field("replayedCount", result.replayedCount())
                .field("rejectedCount", result.rejectedCount())
                .field("unknownCount", result.unknownCount())
                .member("results")
                .raw('[');
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                json.raw(',');
            }
            item(json, items.get(i));
        }
        return json.raw(']').endObject();
    }

    private static void item(JsonText json, BatchResult.Item item) {
        json.beginObject().field("index", item.index());
        if (item.status() != null) {
            json.field("status", item.status());
        }
        if (item.paymentId() != null) {
            json.field("paymentId", item.paymentId());
        }
        if (item.acceptedAt() != null) {
            json.field("acceptedAt", item.acceptedAt());
        }
        if (item.endToEndId() != null) {
            json.field("endToEndId", item.endToEndId());
        }
        if (item.problem() != null) {
            json.beginObject("problem");
            for (Map.Entry<String, Object> member : item.problem().entrySet()) {
                switch (member.getValue()) {
                    case null -> json.field(member.getKey(), (String) null);
                    case String text -> json.field(member.getKey(), text);
                    case Integer number -> json.field(member.getKey(), number);
                    case Long number -> json.field(member.getKey(), number);
                    default -> throw new IllegalArgumentException("not a problem member: " + member);
                }
            }
            json.endObject();
        }
        json.endObject();
    }
}
