package io.pagora.payments.api.application.intake;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.PaymentRequested;
import io.pagora.events.ReturnReason;
import io.pagora.payments.api.application.intake.PaymentIntake.Order;
import io.pagora.payments.api.application.intake.PaymentIntake.Outcome;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.payments.api.domain.PaymentRules;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.PixId;
import io.pagora.settlement.domain.access.Caller;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The intake's end-to-end id checks, on in-memory fakes: an id is its payer's bank's, names a minute neither too
 * old to be checked for reuse nor too far ahead, and names one payment (a return id likewise, one return).
 */
class PaymentIntakeEndToEndIdTest {

    private static final int RETENTION_DAYS = 7;
    private static final Instant NOW = Instant.parse("2026-11-20T10:00:00Z");
    private static final Caller PAYER = Caller.bank(IntakeOnFakes.PAYER_BANK.ispb());
    private static final Caller PAYEE = Caller.bank(IntakeOnFakes.PAYEE_BANK.ispb());

    private final IntakeOnFakes fakes = new IntakeOnFakes(NOW, RETENTION_DAYS);

    @Test
    void withoutAnIdTheSwitchMakesOneOfThePayersBankAndPublishesIt() {
        Outcome.Accepted accepted = accepted(fakes.intake.accept(PAYER, key("no-id"), payment(12_34, null)));
        PixId made = new PixId(accepted.endToEndId());
        assertThat(made.kind()).isEqualTo(PixId.Kind.END_TO_END);
        assertThat(made.bank()).isEqualTo(IntakeOnFakes.PAYER_BANK);
        assertThat(fakes.published).extracting(PaymentRequested::endToEndId).containsExactly(accepted.endToEndId());
    }

    @Test
    void theBanksOwnIdIsKept() {
        String id = endToEndId(IntakeOnFakes.PAYER_BANK, NOW, "ownId000001");
        assertThat(accepted(fakes.intake.accept(PAYER, key("own-id"), payment(12_34, id)))
                        .endToEndId())
                .isEqualTo(id);
    }

    @Test
    void anIdOfAnotherBankIsRefusedAndNothingIsPublished() {
        String id = endToEndId(IntakeOnFakes.PAYEE_BANK, NOW, "notMine0001");
        Refusal refusal = rejected(fakes.intake.accept(PAYER, key("foreign-id"), payment(12_34, id)));
        assertThat(refusal.type()).isEqualTo(RefusalReason.INVALID_END_TO_END_ID);
        assertThat(refusal.field()).isEqualTo("endToEndId");
        assertThat(refusal.detail()).contains("names bank " + IntakeOnFakes.PAYEE_BANK);
        assertThat(fakes.published).isEmpty();
    }

    @Test
    void anIdFiveMinutesAheadIsAcceptedAndOneMinuteMoreIsRefused() {
        Duration ahead = PaymentRules.PIX_ID_CLOCK_AHEAD_MAX;
        String atTheEdge = endToEndId(IntakeOnFakes.PAYER_BANK, NOW.plus(ahead), "ahead000001");
        assertThat(fakes.intake.accept(PAYER, key("at-the-edge"), payment(1_00, atTheEdge)))
                .isInstanceOf(Outcome.Accepted.class);
        String beyond = endToEndId(IntakeOnFakes.PAYER_BANK, NOW.plus(ahead).plusSeconds(60), "ahead000002");
        Refusal refusal = rejected(fakes.intake.accept(PAYER, key("beyond-the-edge"), payment(1_00, beyond)));
        assertThat(refusal.type()).isEqualTo(RefusalReason.INVALID_END_TO_END_ID);
        assertThat(refusal.detail()).contains("in the future");
    }

    @Test
    void aNewPaymentsIdNamesADayStillKeptForReuseChecks() {
        Instant oldestKept = NOW.truncatedTo(ChronoUnit.DAYS).minus(Duration.ofDays(RETENTION_DAYS - 1));
        String oldest = endToEndId(IntakeOnFakes.PAYER_BANK, oldestKept, "oldest00001");
        assertThat(fakes.intake.accept(PAYER, key("oldest-day"), payment(1_00, oldest)))
                .isInstanceOf(Outcome.Accepted.class);
        String older = endToEndId(IntakeOnFakes.PAYER_BANK, oldestKept.minusSeconds(60), "older000001");
        Refusal refusal = rejected(fakes.intake.accept(PAYER, key("a-day-older"), payment(1_00, older)));
        assertThat(refusal.type()).isEqualTo(RefusalReason.INVALID_END_TO_END_ID);
        assertThat(refusal.detail()).contains("older than");
        assertThat(fakes.published).hasSize(1);
    }

    @Test
    void anotherRequestUnderAnIdInUseIsRefusedAsAReuseNamingThePayment() {
        String id = endToEndId(IntakeOnFakes.PAYER_BANK, NOW, "reused00001");
        Outcome.Accepted first = accepted(fakes.intake.accept(PAYER, key("first"), payment(12_34, id)));
        Refusal refusal = rejected(fakes.intake.accept(PAYER, key("second"), payment(12_35, id)));
        assertThat(refusal.type()).isEqualTo(RefusalReason.END_TO_END_ID_REUSED);
        assertThat(refusal.field()).isEqualTo("endToEndId");
        assertThat(refusal.detail()).contains(first.paymentId().toString());
        assertThat(fakes.published)
                .extracting(PaymentRequested::paymentId)
                .containsExactly(first.paymentId().toString());
    }

    @Test
    void twoOrdersOfABatchSharingAnIdMakeOnePaymentAndRefuseTheOther() {
        String id = endToEndId(IntakeOnFakes.PAYER_BANK, NOW, "shared00001");
        List<Outcome> outcomes = fakes.intake.acceptAll(List.of(
                Order.of(PAYER, key("one"), payment(1_00, id)), Order.of(PAYER, key("two"), payment(2_00, id))));
        Outcome.Accepted first = accepted(outcomes.get(0));
        assertThat(rejected(outcomes.get(1)).type()).isEqualTo(RefusalReason.END_TO_END_ID_REUSED);
        assertThat(fakes.published)
                .extracting(PaymentRequested::paymentId)
                .containsExactly(first.paymentId().toString());
    }

    @Test
    void aReturnIdInUseForAnotherReturnIsRefusedAsAReturnIdReuse() {
        PaymentId original = accepted(fakes.intake.accept(PAYER, key("original"), payment(50_00, null)))
                .paymentId();
        String returnId = PixId.of(PixId.Kind.RETURN, IntakeOnFakes.PAYEE_BANK, NOW, "return00001")
                .value();
        accepted(fakes.intake.accept(PAYEE, key("return-1"), aReturn(original, 10_00, returnId)));
        Refusal refusal = rejected(fakes.intake.accept(PAYEE, key("return-2"), aReturn(original, 20_00, returnId)));
        assertThat(refusal.type()).isEqualTo(RefusalReason.RETURN_ID_REUSED);
        assertThat(refusal.field()).isEqualTo("returnId");
    }

    private PaymentRequest payment(long amountCentavos, String endToEndId) {
        return new PaymentRequest(
                fakes.payer, fakes.payee, amountCentavos, PaymentRequest.CURRENCY_BRL, "rent", endToEndId);
    }

    private PaymentRequest aReturn(PaymentId original, long amountCentavos, String returnId) {
        return new PaymentRequest(
                fakes.payee,
                fakes.payer,
                amountCentavos,
                PaymentRequest.CURRENCY_BRL,
                "back",
                returnId,
                new PaymentRequest.ReturnOf(original, 50_00, ReturnReason.BE08));
    }

    private static String endToEndId(BankId bank, Instant at, String suffix) {
        return PixId.of(PixId.Kind.END_TO_END, bank, at, suffix).value();
    }

    private static IdempotencyKey key(String text) {
        return new IdempotencyKey(text);
    }

    private static Outcome.Accepted accepted(Outcome outcome) {
        assertThat(outcome).isInstanceOf(Outcome.Accepted.class);
        return (Outcome.Accepted) outcome;
    }

    private static Refusal rejected(Outcome outcome) {
        assertThat(outcome).isInstanceOf(Outcome.Rejected.class);
        return ((Outcome.Rejected) outcome).problem();
    }
}
