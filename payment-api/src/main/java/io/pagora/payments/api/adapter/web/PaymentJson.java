package io.pagora.payments.api.adapter.web;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.intake.PaymentIntake.Order;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.BrCode;
import io.pagora.payments.api.domain.directory.KeyedPayment;
import io.pagora.payments.api.domain.directory.PixKey;
import io.pagora.settlement.domain.PixId;
import io.pagora.settlement.domain.access.Caller;
import tools.jackson.databind.JsonNode;

/**
 * Reads a payment order's JSON fields: a payee named by account ({@code payeeAccountId}) makes a well-formed
 * {@link PaymentRequest}; one named by key ({@code payeeKey}, or the key of a BR Code in {@code brCode}) a
 * {@link KeyedPayment}, which the intake resolves to the account its look-up found.
 */
final class PaymentJson {

    private static final String PAYEE_ACCOUNT = "payeeAccountId";
    private static final String PAYEE_KEY = "payeeKey";
    private static final String BR_CODE = "brCode";

    private PaymentJson() {}

    /** The order, by account or by key; a malformed one refused naming its first bad field. */
    static Order order(Caller caller, IdempotencyKey key, JsonNode object) {
        try {
            JsonFields fields = new JsonFields(object);
            if (fields.node(PAYEE_KEY) == null && fields.node(BR_CODE) == null) {
                return Order.of(caller, key, parse(object));
            }
            return Order.byKey(caller, key, keyed(fields));
        } catch (RefusalException e) {
            return Order.malformed(caller, e.problem());
        }
    }

    /** @throws RefusalException naming the first bad field */
    static PaymentRequest parse(JsonNode object) {
        JsonFields fields = new JsonFields(object);
        Id128 payer = fields.accountId("payerAccountId");
        Id128 payee = fields.accountId(PAYEE_ACCOUNT);
        long amount = fields.amountCentavos("amountCentavos");
        String currency = currency(fields);
        String description = description(fields);
        String endToEndId = fields.optionalString("endToEndId");
        if (endToEndId != null) {
            checkEndToEndId(fields, endToEndId, "omit it and the switch makes one");
        }
        return new PaymentRequest(payer, payee, amount, currency, description, endToEndId);
    }

    private static KeyedPayment keyed(JsonFields fields) {
        Id128 payer = fields.accountId("payerAccountId");
        int named = (fields.node(PAYEE_ACCOUNT) == null ? 0 : 1)
                + (fields.node(PAYEE_KEY) == null ? 0 : 1)
                + (fields.node(BR_CODE) == null ? 0 : 1);
        if (named > 1) {
            throw fields.invalid(
                    RefusalReason.INVALID_FIELD,
                    fields.node(PAYEE_KEY) != null ? PAYEE_KEY : BR_CODE,
                    "names the payee: give one of payeeAccountId, payeeKey and brCode");
        }
        BrCode code = null;
        PixKey payeeKey;
        String field;
        if (fields.node(BR_CODE) != null) {
            field = BR_CODE;
            BrCode.Read read = BrCode.read(fields.requiredString(BR_CODE), BR_CODE);
            code = switch (read) {
                case BrCode.Read.Code ok -> ok.code();
                case BrCode.Read.Bad bad -> throw new RefusalException(bad.problem());
            };
            payeeKey = code.key();
        } else {
            field = PAYEE_KEY;
            String raw = fields.requiredString(PAYEE_KEY);
            payeeKey = PixKey.of(raw)
                    .orElseThrow(() -> fields.invalid(
                            RefusalReason.INVALID_KEY,
                            PAYEE_KEY,
                            "is no PIX key: a CPF (11 digits), a CNPJ (14 characters), a phone (+ and 2 to 15"
                                    + " digits), an e-mail, or an EVP (a UUID)"));
        }
        long amount = code != null && code.amountCentavos() != null && fields.node("amountCentavos") == null
                ? code.amountCentavos()
                : fields.amountCentavos("amountCentavos");
        String currency = currency(fields);
        String description = description(fields);
        String endToEndId = fields.optionalString("endToEndId");
        if (endToEndId == null) {
            throw new RefusalException(io.pagora.payments.api.domain.Refusal.ofField(
                    RefusalReason.MISSING_FIELD,
                    "endToEndId",
                    "endToEndId is required to pay by key: the one the key's look-up answered"));
        }
        checkEndToEndId(fields, endToEndId, "give the one the key's look-up answered");
        return new KeyedPayment(payer, payeeKey, code, amount, currency, description, endToEndId, field);
    }

    private static String currency(JsonFields fields) {
        String currency = fields.optionalString("currency");
        if (currency == null) {
            return PaymentRequest.CURRENCY_BRL;
        }
        if (!PaymentRequest.CURRENCY_BRL.equals(currency)) {
            throw fields.invalid(
                    RefusalReason.UNSUPPORTED_CURRENCY,
                    "currency",
                    "must be BRL (the only currency settled), got \"" + JsonFields.abbreviate(currency) + "\"");
        }
        return currency;
    }

    private static String description(JsonFields fields) {
        String description = fields.optionalString("description");
        if (description != null && !JsonFields.isPlainText(description, PaymentRequest.DESCRIPTION_CHARS_MAX)) {
            throw fields.invalid(
                    RefusalReason.INVALID_FIELD,
                    "description",
                    "must be at most " + PaymentRequest.DESCRIPTION_CHARS_MAX
                            + " characters without control characters");
        }
        return description;
    }

    private static void checkEndToEndId(JsonFields fields, String endToEndId, String advice) {
        PixId.problem(endToEndId, PixId.Kind.END_TO_END).ifPresent(problem -> {
            throw fields.invalid(
                    RefusalReason.INVALID_END_TO_END_ID,
                    "endToEndId",
                    "must be a PIX end-to-end id (" + problem + "); " + advice);
        });
    }
}
