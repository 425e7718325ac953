package io.pagora.clearing.application;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentExpired;
import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.TimeOrderedIds;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Proves that reading a record never throws: every way a record can be unfit for settlement is an
 * {@code Invalid} result with a reason (for the dead-letter header), and a valid request becomes the
 * domain {@code Payment} with the same ids and amount.
 */
class ClearingRequestTest {

    private static final Id128 PAYER = ChartOfAccounts.customer(new BankId(11_111_111), 7);
    private static final Id128 PAYEE = ChartOfAccounts.customer(new BankId(22_222_222), 9);
    private final String paymentId = new TimeOrderedIds().nextPaymentId().toString();

    @Test
    void aValidRequestBecomesAPayment() {
        ClearingRequest.Parsed parsed =
                ClearingRequest.parse(encode(request(paymentId, PAYER.toString(), PAYEE.toString(), 150, "BRL")));
        assertThat(parsed).isInstanceOf(ClearingRequest.Parsed.Valid.class);
        ClearingRequest request = ((ClearingRequest.Parsed.Valid) parsed).request();
        assertThat(request.payment().id().toString()).isEqualTo(paymentId);
        assertThat(request.payment().payer()).isEqualTo(PAYER);
        assertThat(request.payment().payee()).isEqualTo(PAYEE);
        assertThat(request.payment().amountCentavos()).isEqualTo(150);
    }

    @Test
    void everyUnfitRecordIsInvalidWithAReason() {
        assertInvalid(null, "empty");
        assertInvalid(new byte[0], "empty");
        assertInvalid("not json".getBytes(StandardCharsets.UTF_8), "undecodable");
        assertInvalid("{\"type\":\"PaymentRequested\"}".getBytes(StandardCharsets.UTF_8), "undecodable");
        assertInvalid(
                PaymentEventCodec.encode(new PaymentExpired(
                        paymentId, PAYER.toString(), PAYEE.toString(), 1, Instant.now(), Instant.now())),
                "not a PaymentRequested but a PaymentExpired");
        assertInvalid(
                encode(request(paymentId, PAYER.toString(), PAYER.toString(), 150, "BRL")),
                "payer and payee must differ");
        assertInvalid(
                encode(request(paymentId, PAYER.toString(), PAYEE.toString(), 0, "BRL")), "amount must be positive");
        assertInvalid(encode(request(paymentId, PAYER.toString(), PAYEE.toString(), 1, "EUR")), "only BRL");
        assertInvalid(encode(request("xyz", PAYER.toString(), PAYEE.toString(), 1, "BRL")), "not a 128-bit hex id");
        assertInvalid(
                encode(request(Id128.of(1).toString(), PAYER.toString(), PAYEE.toString(), 1, "BRL")), "low byte zero");
        assertInvalid(
                encode(request(
                        paymentId, ChartOfAccounts.reserve(new BankId(1)).toString(), PAYEE.toString(), 1, "BRL")),
                "must be customer accounts");
    }

    @Test
    void aHugeReasonIsShortened() {
        String huge = "x".repeat(10_000);
        ClearingRequest.Parsed parsed =
                ClearingRequest.parse(encode(request(paymentId, huge, PAYEE.toString(), 1, "BRL")));
        assertThat(((ClearingRequest.Parsed.Invalid) parsed).reason().length())
                .isLessThanOrEqualTo(ClearingRequest.REASON_CHARS_MAX + 1);
    }

    private static void assertInvalid(byte[] value, String reasonFragment) {
        ClearingRequest.Parsed parsed = ClearingRequest.parse(value);
        assertThat(parsed).isInstanceOf(ClearingRequest.Parsed.Invalid.class);
        assertThat(((ClearingRequest.Parsed.Invalid) parsed).reason()).contains(reasonFragment);
    }

    private static PaymentRequested request(String id, String payer, String payee, long amount, String currency) {
        return new PaymentRequested(id, payer, payee, amount, currency, "test", "E2E", Instant.now());
    }

    private static byte[] encode(PaymentRequested request) {
        return PaymentEventCodec.encode(request);
    }
}
