package io.pagora.payments.api.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.ReturnReason;
import io.pagora.payments.api.application.returns.Returns.ReturnOrder;
import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.PixId;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** A return's path and body read into a {@link ReturnOrder}, each mistake naming its field. */
class ReturnJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ORIGINAL = "0123456789abcdef0123456789abcd00";
    private static final String RETURN_ID = PixId.of(
                    PixId.Kind.RETURN, new BankId(42), Instant.parse("2026-11-20T10:00:00Z"), "back0000001")
            .value();

    @Test
    void aWholeReturnIsRead() {
        ReturnOrder order = parse(
                ORIGINAL,
                "{\"amountCentavos\":1250,\"reason\":\"MD06\",\"returnId\":\"" + RETURN_ID
                        + "\",\"description\":\"refund\",\"unknownField\":true}");
        assertThat(order)
                .isEqualTo(new ReturnOrder(PaymentId.parse(ORIGINAL), 12_50, ReturnReason.MD06, RETURN_ID, "refund"));
    }

    @Test
    void theReturnIdAndTheDescriptionAreOptional() {
        assertThat(parse(ORIGINAL, "{\"amountCentavos\":1,\"reason\":\"BE08\",\"returnId\":null}"))
                .isEqualTo(new ReturnOrder(PaymentId.parse(ORIGINAL), 1, ReturnReason.BE08, null, null));
    }

    @Test
    void thePathsPaymentIdIsOneTheSwitchGave() {
        String allZero = "0".repeat(32);
        for (String bad :
                List.of(ORIGINAL.toUpperCase(), ORIGINAL.substring(0, 31) + "1", allZero, ORIGINAL.substring(1))) {
            Refusal refusal = refusalOf(bad, "{\"amountCentavos\":1,\"reason\":\"BE08\"}");
            assertThat(refusal.type()).as(bad).isEqualTo(RefusalReason.INVALID_FIELD);
            assertThat(refusal.field()).isEqualTo("paymentId");
        }
    }

    @Test
    void theAmountIsAWholeNumberOfCentavos() {
        assertThat(refusalOf(ORIGINAL, "{\"reason\":\"BE08\"}").type()).isEqualTo(RefusalReason.MISSING_FIELD);
        Refusal fraction = refusalOf(ORIGINAL, "{\"amountCentavos\":1.5,\"reason\":\"BE08\"}");
        assertThat(fraction.type()).isEqualTo(RefusalReason.INVALID_AMOUNT);
        assertThat(fraction.field()).isEqualTo("amountCentavos");
        assertThat(parse(ORIGINAL, "{\"amountCentavos\":0,\"reason\":\"BE08\"}").amountCentavos())
                .as("its sign is the use case's rule")
                .isZero();
    }

    @Test
    void theReasonIsOneOfThePixReturnReasons() {
        assertThat(refusalOf(ORIGINAL, "{\"amountCentavos\":1}").type()).isEqualTo(RefusalReason.MISSING_FIELD);
        Refusal unknown = refusalOf(ORIGINAL, "{\"amountCentavos\":1,\"reason\":\"AC03\"}");
        assertThat(unknown.type()).isEqualTo(RefusalReason.INVALID_RETURN_REASON);
        assertThat(unknown.field()).isEqualTo("reason");
        assertThat(unknown.detail()).endsWith("got \"AC03\"");
    }

    @Test
    void aReturnIdIsAPixReturnId() {
        String endToEndId = "E" + RETURN_ID.substring(1);
        Refusal refusal =
                refusalOf(ORIGINAL, "{\"amountCentavos\":1,\"reason\":\"BE08\",\"returnId\":\"" + endToEndId + "\"}");
        assertThat(refusal.type()).isEqualTo(RefusalReason.INVALID_RETURN_ID);
        assertThat(refusal.field()).isEqualTo("returnId");
    }

    @Test
    void theDescriptionIsPlainTextOfAtMostItsLength() {
        String longest = "x".repeat(PaymentRequest.DESCRIPTION_CHARS_MAX);
        assertThat(parse(ORIGINAL, "{\"amountCentavos\":1,\"reason\":\"BE08\",\"description\":\"" + longest + "\"}")
                        .description())
                .isEqualTo(longest);
        for (String bad : List.of(longest + "x", "line\\nbreak")) {
            Refusal refusal =
                    refusalOf(ORIGINAL, "{\"amountCentavos\":1,\"reason\":\"BE08\",\"description\":\"" + bad + "\"}");
            assertThat(refusal.type()).as(bad).isEqualTo(RefusalReason.INVALID_FIELD);
            assertThat(refusal.field()).isEqualTo("description");
        }
    }

    private static ReturnOrder parse(String paymentId, String body) {
        return ReturnJson.parse(paymentId, JSON.readTree(body));
    }

    private static Refusal refusalOf(String paymentId, String body) {
        try {
            parse(paymentId, body);
        } catch (RefusalException e) {
            return e.problem();
        }
        throw new AssertionError("expected a refusal");
    }
}
