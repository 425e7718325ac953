package io.pagora.payments.api.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.access.Caller;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Who may return what, and how much: each refusal of {@link ReturnRules}, at its edge. */
class ReturnRulesTest {

    private static final BankId PAYER_BANK = new BankId(21);
    private static final BankId PAYEE_BANK = new BankId(22);
    private static final BankId THIRD_BANK = new BankId(23);
    private static final Duration WINDOW = Duration.ofDays(90);
    private static final Instant SETTLED_AT = Instant.parse("2026-08-01T12:00:00Z");

    private final ReturnRules rules = new ReturnRules(WINDOW);
    private final TimeOrderedIds ids = new TimeOrderedIds(Clock.systemUTC());
    private final PaymentId id = ids.nextPaymentId();
    private final Payment payment =
            new Payment(id, ChartOfAccounts.customer(PAYER_BANK, 1), ChartOfAccounts.customer(PAYEE_BANK, 1), 100_00);

    @Test
    void thePayeesBankReturnsASettledPayment() {
        assertThat(rules.checkOriginal(Caller.bank(PAYEE_BANK.ispb()), id, settled(100_00)))
                .isEmpty();
    }

    @Test
    void aPaymentTheLedgerDoesNotHoldIsUnknown() {
        Optional<Refusal> refusal = rules.checkOriginal(Caller.bank(PAYEE_BANK.ispb()), id, null);
        assertThat(refusal).map(Refusal::type).contains(RefusalReason.UNKNOWN_PAYMENT);
        assertThat(refusal.orElseThrow().detail()).contains(id.toString());
    }

    @Test
    void toAThirdBankOrTheOperatorAPaymentIsUnknownInTheSameBytesAsAMissingOne() {
        Optional<Refusal> missing = rules.checkOriginal(Caller.bank(THIRD_BANK.ispb()), id, null);
        assertThat(rules.checkOriginal(Caller.bank(THIRD_BANK.ispb()), id, settled(100_00)))
                .isEqualTo(missing);
        assertThat(rules.checkOriginal(Caller.OPERATOR, id, settled(100_00))).isEqualTo(missing);
    }

    @Test
    void itsPayersBankIsToldOnlyThePayeesBankReturnsIt() {
        Optional<Refusal> refusal = rules.checkOriginal(Caller.bank(PAYER_BANK.ispb()), id, settled(100_00));
        assertThat(refusal).map(Refusal::type).contains(RefusalReason.NOT_THE_PAYEES_BANK);
        assertThat(refusal.orElseThrow().detail()).contains(PAYEE_BANK.toString());
    }

    @Test
    void aReturnIsNotReturned() {
        Payment aReturn = new Payment(
                ids.nextPaymentId(), payment.payee(), payment.payer(), 10_00, 0, new Payment.ReturnOf(id, 100_00, 1));
        Optional<Refusal> refusal = rules.checkOriginal(
                Caller.bank(PAYER_BANK.ispb()), aReturn.id(), new OriginalPayment(aReturn, SETTLED_AT, 10_00));
        assertThat(refusal).map(Refusal::type).contains(RefusalReason.RETURN_OF_A_RETURN);
    }

    @Test
    void aPaymentNotSettledIsNotReturned() {
        Optional<Refusal> refusal =
                rules.checkOriginal(Caller.bank(PAYEE_BANK.ispb()), id, new OriginalPayment(payment, null, 100_00));
        assertThat(refusal).map(Refusal::type).contains(RefusalReason.PAYMENT_NOT_SETTLED);
    }

    @Test
    void theWindowIncludesItsLastInstantAndNotOneNanosecondMore() {
        OriginalPayment original = settled(100_00);
        Instant lastInstant = SETTLED_AT.plus(WINDOW);
        assertThat(rules.checkReturnable(id, original, 1_00, lastInstant)).isEmpty();
        Optional<Refusal> late = rules.checkReturnable(id, original, 1_00, lastInstant.plusNanos(1));
        assertThat(late).map(Refusal::type).contains(RefusalReason.RETURN_WINDOW_CLOSED);
        assertThat(late.orElseThrow().field()).isNull();
    }

    @Test
    void exactlyWhatIsLeftIsReturnedAndOneCentavoMoreIsRefusedSayingWhatIsLeft() {
        OriginalPayment original = settled(37_50);
        assertThat(rules.checkReturnable(id, original, 37_50, SETTLED_AT)).isEmpty();
        Optional<Refusal> more = rules.checkReturnable(id, original, 37_51, SETTLED_AT);
        assertThat(more).map(Refusal::type).contains(RefusalReason.RETURN_EXCEEDS_RETURNABLE);
        assertThat(more.orElseThrow().field()).isEqualTo("amountCentavos");
        assertThat(more.orElseThrow().numbers()).isEqualTo(Map.of(ReturnRules.RETURNABLE_CENTAVOS, 37_50L));
    }

    @Test
    void nothingLeftRefusesEvenOneCentavo() {
        Optional<Refusal> refusal = rules.checkReturnable(id, settled(0), 1, SETTLED_AT);
        assertThat(refusal).map(Refusal::type).contains(RefusalReason.RETURN_EXCEEDS_RETURNABLE);
        assertThat(refusal.orElseThrow().numbers()).containsEntry(ReturnRules.RETURNABLE_CENTAVOS, 0L);
    }

    @Test
    void pastTheWindowIsRefusedBeforeTheAmountIsLookedAt() {
        Optional<Refusal> refusal = rules.checkReturnable(
                id, settled(10_00), 20_00, SETTLED_AT.plus(WINDOW).plusSeconds(1));
        assertThat(refusal).map(Refusal::type).contains(RefusalReason.RETURN_WINDOW_CLOSED);
    }

    @Test
    void onlyItsPayersAndItsPayeesBanksMayReadAPayment() {
        assertThat(ReturnRules.mayRead(Caller.bank(PAYER_BANK.ispb()), payment)).isTrue();
        assertThat(ReturnRules.mayRead(Caller.bank(PAYEE_BANK.ispb()), payment)).isTrue();
        assertThat(ReturnRules.mayRead(Caller.bank(THIRD_BANK.ispb()), payment)).isFalse();
        assertThat(ReturnRules.mayRead(Caller.OPERATOR, payment)).isFalse();
    }

    @Test
    void aWindowIsPositive() {
        assertThatThrownBy(() -> new ReturnRules(Duration.ZERO)).isInstanceOf(IllegalStateException.class);
        assertThat(new ReturnRules(Duration.ofSeconds(1)).window()).isEqualTo(Duration.ofSeconds(1));
    }

    private OriginalPayment settled(long returnableCentavos) {
        return new OriginalPayment(payment, SETTLED_AT, returnableCentavos);
    }
}
