package io.pagora.payments.api.adapter.web;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.settlement.domain.PixId;
import tools.jackson.databind.JsonNode;

/** Reads a payment order's JSON fields into a well-formed {@link PaymentRequest}. */
final class PaymentJson {

    private PaymentJson() {}

    /** @throws io.pagora.payments.api.domain.RefusalException naming the first bad field */
    static PaymentRequest parse(JsonNode object) {
        JsonFields fields = new JsonFields(object);
        Id128 payer = fields.accountId("payerAccountId");
        Id128 payee = fields.accountId("payeeAccountId");
        long amount = fields.amountCentavos("amountCentavos");
        String currency = fields.optionalString("currency");
        if (currency == null) {
            currency = PaymentRequest.CURRENCY_BRL;
        } else if (!PaymentRequest.CURRENCY_BRL.equals(currency)) {
            throw fields.invalid(
                    RefusalReason.UNSUPPORTED_CURRENCY,
                    "currency",
                    "must be BRL (the only currency settled), got \"" + JsonFields.abbreviate(currency) + "\"");
        }
        String description = fields.optionalString("description");
        if (description != null && !JsonFields.isPlainText(description, PaymentRequest.DESCRIPTION_CHARS_MAX)) {
            throw fields.invalid(
                    RefusalReason.INVALID_FIELD,
                    "description",
                    "must be at most " + PaymentRequest.DESCRIPTION_CHARS_MAX
                            + " characters without control characters");
        }
        String endToEndId = fields.optionalString("endToEndId");
        if (endToEndId != null) {
            PixId.problem(endToEndId, PixId.Kind.END_TO_END).ifPresent(problem -> {
                throw fields.invalid(
                        RefusalReason.INVALID_END_TO_END_ID,
                        "endToEndId",
                        "must be a PIX end-to-end id (" + problem + "); omit it and the switch makes one");
            });
        }
        return new PaymentRequest(payer, payee, amount, currency, description, endToEndId);
    }
}
