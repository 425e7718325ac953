package io.pagora.payments.api.adapter.web;

import io.pagora.events.ReturnReason;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.returns.Returns.ReturnOrder;
import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.PixId;
import java.util.Arrays;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/** Reads a return's path and JSON fields into a well-formed {@link ReturnOrder}. */
final class ReturnJson {

    private ReturnJson() {}

    /** @throws RefusalException naming the first bad field */
    static ReturnOrder parse(String paymentId, JsonNode object) {
        PaymentId original = paymentId(paymentId);
        JsonFields fields = new JsonFields(object);
        long amount = fields.amountCentavos("amountCentavos");
        String code = fields.requiredString("reason");
        ReturnReason reason = ReturnReason.ofCode(code)
                .orElseThrow(() -> fields.invalid(
                        RefusalReason.INVALID_RETURN_REASON,
                        "reason",
                        "must be one of the PIX return reasons " + Arrays.toString(ReturnReason.values()) + ", got \""
                                + JsonFields.abbreviate(code) + "\""));
        String returnId = fields.optionalString("returnId");
        if (returnId != null) {
            PixId.problem(returnId, PixId.Kind.RETURN).ifPresent(problem -> {
                throw fields.invalid(
                        RefusalReason.INVALID_RETURN_ID,
                        "returnId",
                        "must be a PIX return id (" + problem + "); omit it and the switch makes one");
            });
        }
        String description = fields.optionalString("description");
        if (description != null && !JsonFields.isPlainText(description, PaymentRequest.DESCRIPTION_CHARS_MAX)) {
            throw fields.invalid(
                    RefusalReason.INVALID_FIELD,
                    "description",
                    "must be at most " + PaymentRequest.DESCRIPTION_CHARS_MAX
                            + " characters without control characters");
        }
        return new ReturnOrder(original, amount, reason, returnId, description);
    }

    /** A payment id as the API writes it: 32 lowercase hexadecimal digits, its low byte zero, not all zero. */
    static PaymentId paymentId(String text) {
        return paymentId(text, "paymentId", "the path's payment id");
    }

    static PaymentId paymentId(String text, String field, String what) {
        if (text == null
                || !Id128.isHexDigits32(text)
                || !text.equals(text.toLowerCase(Locale.ROOT))
                || !text.endsWith("00")
                || Id128.parse(text).isZero()) {
            throw new RefusalException(Refusal.ofField(
                    RefusalReason.INVALID_FIELD,
                    field,
                    what + " is 32 lowercase hexadecimal digits, not all zero, the last two 0, as the switch gave it"));
        }
        return PaymentId.parse(text);
    }
}
