package io.pagora.payments.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.AccountResult;
import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.testing.Http;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /payments/{paymentId}/returns} over HTTP against payment-api with a real broker and PostgreSQL ledger,
 * its originals settled on that ledger by settlement's own {@link Settlement} (clearing's code): who may return a
 * payment and what everyone else learns (nothing: a missing payment's 404), and the answers that were 500s.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReturnsTest extends PaymentApiIntegrationTest {

    static final int PAYER_BANK = 51;
    static final int PAYEE_BANK = 52;
    static final int THIRD_BANK = 53;
    static final long AMOUNT_CENTAVOS = 10_000;

    Participants participants;
    Settlement settlement;
    TimeOrderedIds ids = new TimeOrderedIds();
    String payer;
    String payee;

    @BeforeAll
    void setUp() {
        participants = new Participants(port);
        participants.registerBank(PAYER_BANK, "Banco Cinquenta e Um");
        participants.registerBank(PAYEE_BANK, "Banco Cinquenta e Dois");
        participants.registerBank(THIRD_BANK, "Banco Cinquenta e Tres");
        participants.fundReserve(PAYER_BANK, 100 * AMOUNT_CENTAVOS);
        payer = participants.openAccount(PAYER_BANK);
        payee = participants.openAccount(PAYEE_BANK);
        participants.fundCustomer(payer, 100 * AMOUNT_CENTAVOS);
        settlement = new Settlement(ledger, 60);
    }

    @Test
    void anyoneButThePayeesBankGetsTheAnswerOfAnUnknownPayment() {
        PaymentId settled = settle();
        PaymentId unknown = ids.nextPaymentId();

        for (Http caller : List.of(participants.bank(THIRD_BANK), participants.operator())) {
            Http.Response existing = returnOf(caller, settled, AMOUNT_CENTAVOS);
            Http.Response missing = returnOf(caller, unknown, AMOUNT_CENTAVOS);

            assertThat(existing.status()).as("%s", existing).isEqualTo(404);
            assertThat(existing.problemType()).isEqualTo("unknown-payment");
            assertThat(existing.contentType()).isEqualTo(missing.contentType());
            assertThat(existing.body())
                    .as("byte for byte the same but the id")
                    .doesNotContain(bank(PAYEE_BANK))
                    .isEqualTo(missing.body().replace(unknown.toString(), settled.toString()));
        }
    }

    @Test
    void thePayersBankWhichMaySeeThePaymentIsToldOnlyItsPayeesBankReturnsIt() {
        PaymentId settled = settle();

        Http.Response response = returnOf(participants.bank(PAYER_BANK), settled, AMOUNT_CENTAVOS);

        assertThat(response.status()).as("%s", response).isEqualTo(403);
        assertThat(response.problemType()).isEqualTo("not-the-payees-bank");
    }

    @Test
    void moreThanTheOriginalsAmountIsRefusedNamingWhatIsLeft() {
        PaymentId settled = settle();

        Http.Response response = returnOf(participants.bank(PAYEE_BANK), settled, AMOUNT_CENTAVOS + 1);

        assertThat(response.status()).as("%s", response).isEqualTo(422);
        assertThat(response.problemType()).isEqualTo("return-exceeds-returnable");
        assertThat(response.json().path("field").asString()).isEqualTo("amountCentavos");
        assertThat(response.json().path("returnableCentavos").isIntegralNumber())
                .as("%s", response)
                .isTrue();
        assertThat(response.json().path("returnableCentavos").asLong()).isEqualTo(AMOUNT_CENTAVOS);
    }

    @Test
    void anAllZeroPaymentIdIsAMalformedPathNotAServerError() {
        for (String id : List.of("0".repeat(32), "f".repeat(32))) {
            Http.Response response = participants
                    .bank(PAYEE_BANK)
                    .post(
                            "/payments/" + id + "/returns",
                            Map.of("amountCentavos", 1, "reason", "MD06"),
                            "Idempotency-Key",
                            UUID.randomUUID().toString());

            assertThat(response.status()).as("%s: %s", id, response).isEqualTo(400);
            assertThat(response.problemType()).isEqualTo("invalid-field");
            assertThat(response.json().path("field").asString()).isEqualTo("paymentId");
        }
    }

    /**
     * Clearing opens a returnable account in two ledger requests (the account, then its opening transfer); between
     * them (a crash, an outage) the account holds nothing yet, and the redelivered return opens it later. Until then
     * nothing can have been returned (the account's limit refuses every debit), so all of the payment is left.
     */
    @Test
    void aReturnableAccountCreatedButNotYetOpenedLeavesTheWholeAmountReturnable() {
        PaymentId settled = settle();
        List<AccountResult> created = ledger.createAccounts(
                List.of(ChartOfAccounts.returnsControlAccount(), ChartOfAccounts.returnableAccount(settled)));
        assertThat(created).allMatch(result -> result == AccountResult.OK || result == AccountResult.EXISTS);

        Http.Response tooMuch = returnOf(participants.bank(PAYEE_BANK), settled, AMOUNT_CENTAVOS + 1);
        Http.Response whole = returnOf(participants.bank(PAYEE_BANK), settled, AMOUNT_CENTAVOS);

        assertThat(tooMuch.status()).as("%s", tooMuch).isEqualTo(422);
        assertThat(tooMuch.json().path("returnableCentavos").asLong()).isEqualTo(AMOUNT_CENTAVOS);
        assertThat(whole.status()).as("%s", whole).isEqualTo(202);
        assertThat(whole.json().path("originalPaymentId").asString()).isEqualTo(settled.toString());
    }

    /** A payment from payer to payee, reserved and posted on the service's ledger as clearing does it. */
    private PaymentId settle() {
        Payment payment = new Payment(
                ids.nextPaymentId(),
                Id128.parse(payer),
                Id128.parse(payee),
                AMOUNT_CENTAVOS,
                System.currentTimeMillis());
        assertThat(settlement.reserve(List.of(payment)))
                .singleElement()
                .isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(settlement.post(List.of(payment))).singleElement().isInstanceOf(ResolutionOutcome.Posted.class);
        return payment.id();
    }

    private static Http.Response returnOf(Http caller, PaymentId original, long amountCentavos) {
        ObjectNode body = Http.JSON
                .createObjectNode()
                .put("amountCentavos", amountCentavos)
                .put("reason", "MD06");
        return caller.post(
                "/payments/" + original + "/returns",
                body,
                "Idempotency-Key",
                UUID.randomUUID().toString());
    }

    private static String bank(int ispb) {
        return String.format("%08d", ispb);
    }
}
