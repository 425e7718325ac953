package io.pagora.payments.api.application.directory.payment;

import static io.pagora.payments.api.application.directory.DirectoryOnFakes.A;
import static io.pagora.payments.api.application.directory.DirectoryOnFakes.B;
import static io.pagora.payments.api.application.directory.DirectoryOnFakes.BANK_A;
import static io.pagora.payments.api.application.directory.DirectoryOnFakes.BANK_B;
import static io.pagora.payments.api.application.directory.DirectoryOnFakes.account;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.directory.DirectoryOnFakes;
import io.pagora.payments.api.application.directory.lookup.LookingUpKeys.Answer;
import io.pagora.payments.api.application.directory.lookup.LookingUpKeys.Ask;
import io.pagora.payments.api.application.directory.registration.RegisteringKeys.NewKey;
import io.pagora.payments.api.application.intake.PaymentIntake.Order;
import io.pagora.payments.api.application.intake.PaymentIntake.Outcome;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.AntiScanPolicy;
import io.pagora.payments.api.domain.directory.BrCode;
import io.pagora.payments.api.domain.directory.KeyedPayment;
import io.pagora.payments.api.domain.directory.PixKey;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Payments by key through the intake, on in-memory fakes: the look-up names the account, the key is checked. */
class PayingByKeyTest {

    static final String PAYER = "52998224725";
    static final PixKey KEY = PixKey.of("maria@example.com").orElseThrow();

    final DirectoryOnFakes fakes = new DirectoryOnFakes(AntiScanPolicy.DICT);
    final Id128 payer = account(BANK_A, 1);
    final Id128 payee = account(BANK_B, 1);

    PayingByKeyTest() {
        fakes.registering.register(B, new NewKey(KEY, payee, "Maria Souza", PAYER));
    }

    @Test
    void aPaymentByKeyPaysTheAccountItsLookUpFoundUnderTheLookUpsId() {
        Answer.Found found = lookUp(KEY);

        Outcome outcome = pay("k1", keyed(KEY, 1_000, found.endToEndId().value()));

        assertThat(outcome).as("%s", outcome).isInstanceOf(Outcome.Accepted.class);
        assertThat(((Outcome.Accepted) outcome).endToEndId())
                .isEqualTo(found.endToEndId().value());
        assertThat(fakes.published).singleElement().satisfies(event -> {
            assertThat(event.payeeAccountId()).isEqualTo(payee.toString());
            assertThat(event.endToEndId()).isEqualTo(found.endToEndId().value());
        });
    }

    @Test
    void aPaidLookUpGivesItsTokensBack() {
        Answer.Found found = lookUp(KEY);
        pay("k1", keyed(KEY, 1_000, found.endToEndId().value()));
        fakes.lookingUp.flushRefunds();

        assertThat(fakes.lookingUp.levels(BANK_A, PAYER).get(1).tokens()).isEqualTo(100.0);
        pay("k2", keyed(KEY, 1_000, found.endToEndId().value()));
        fakes.lookingUp.flushRefunds();
        assertThat(fakes.lookingUp.levels(BANK_A, PAYER).get(1).tokens())
                .as("once per look-up")
                .isEqualTo(100.0);
    }

    @Test
    void anIdNoLookUpOfThePayersBankReservedIsRefused() {
        Answer.Found othersLookUp = (Answer.Found)
                fakes.lookingUp.lookUpAll(List.of(new Ask(BANK_B, PAYER, KEY))).getFirst();

        assertThat(refusal(pay("k1", keyed(KEY, 1_000, "E00000041202611291200abcdefghijk"))))
                .isEqualTo(RefusalReason.UNKNOWN_LOOK_UP);
        assertThat(refusal(pay("k2", keyed(KEY, 1_000, othersLookUp.endToEndId().value()))))
                .as("another bank's look-up is no look-up of this one")
                .isEqualTo(RefusalReason.UNKNOWN_LOOK_UP);
        assertThat(fakes.published).isEmpty();
    }

    @Test
    void aLookUpPastItsValidityIsRefused() {
        Answer.Found found = lookUp(KEY);
        fakes.clock.set(fakes.clock.instant().plus(DirectoryOnFakes.VALID_FOR).plus(Duration.ofSeconds(1)));

        assertThat(refusal(pay("k1", keyed(KEY, 1_000, found.endToEndId().value()))))
                .isEqualTo(RefusalReason.UNKNOWN_LOOK_UP);
    }

    @Test
    void aLookUpOfAnotherKeyIsRefused() {
        PixKey other = PixKey.of("+5561912345678").orElseThrow();
        fakes.registering.register(B, new NewKey(other, payee, "Maria Souza", PAYER));
        Answer.Found found = lookUp(KEY);

        assertThat(refusal(pay("k1", keyed(other, 1_000, found.endToEndId().value()))))
                .isEqualTo(RefusalReason.LOOK_UP_KEY_MISMATCH);
    }

    @Test
    void aKeyMovedSinceItsLookUpIsRefusedButAReplayOfAnAcceptedPaymentIsNot() {
        Answer.Found first = lookUp(KEY);
        Answer.Found second = lookUp(KEY);
        Outcome accepted = pay("k1", keyed(KEY, 1_000, first.endToEndId().value()));

        fakes.registering.update(B, KEY, account(BANK_B, 2), "Maria Souza");

        assertThat(refusal(pay("k2", keyed(KEY, 1_000, second.endToEndId().value()))))
                .isEqualTo(RefusalReason.KEY_MOVED);
        Outcome replay = pay("k1", keyed(KEY, 1_000, first.endToEndId().value()));
        assertThat(replay).isInstanceOf(Outcome.Accepted.class);
        assertThat(((Outcome.Accepted) replay).paymentId()).isEqualTo(((Outcome.Accepted) accepted).paymentId());
        assertThat(((Outcome.Accepted) replay).replayed()).isTrue();

        fakes.keys.delete(KEY, account(BANK_B, 2));
        Answer lookUpAfterDelete =
                fakes.lookingUp.lookUpAll(List.of(new Ask(BANK_A, PAYER, KEY))).getFirst();
        assertThat(lookUpAfterDelete).isInstanceOf(Answer.Missing.class);
    }

    @Test
    void aBrCodeWithAnAmountIsPaidThatAmountOnly() {
        BrCode code = new BrCode(KEY, 2_500L, "Maria Souza", "BRASILIA", "Pedido1", null);
        Answer.Found found = lookUp(KEY);
        String id = found.endToEndId().value();

        Outcome wrong = pay("k1", new KeyedPayment(payer, KEY, code, 2_000, "BRL", null, id, "brCode"));
        Outcome right = pay("k2", new KeyedPayment(payer, KEY, code, 2_500, "BRL", null, id, "brCode"));

        assertThat(refusal(wrong)).isEqualTo(RefusalReason.BR_CODE_AMOUNT_MISMATCH);
        assertThat(right).isInstanceOf(Outcome.Accepted.class);
    }

    @Test
    void byKeyAndByAccountAreDifferentRequestsUnderOneIdempotencyKey() {
        Answer.Found found = lookUp(KEY);
        pay("k1", keyed(KEY, 1_000, found.endToEndId().value()));

        Outcome byAccount = fakes.intake
                .acceptAll(List.of(Order.of(
                        A,
                        new IdempotencyKey("k1"),
                        new io.pagora.payments.api.domain.PaymentRequest(
                                payer,
                                payee,
                                1_000,
                                "BRL",
                                null,
                                found.endToEndId().value()))))
                .getFirst();

        assertThat(refusal(byAccount)).isEqualTo(RefusalReason.IDEMPOTENCY_KEY_REUSED);
    }

    private Answer.Found lookUp(PixKey key) {
        Answer answer =
                fakes.lookingUp.lookUpAll(List.of(new Ask(BANK_A, PAYER, key))).getFirst();
        assertThat(answer).as("%s", answer).isInstanceOf(Answer.Found.class);
        return (Answer.Found) answer;
    }

    private KeyedPayment keyed(PixKey key, long amount, String endToEndId) {
        return new KeyedPayment(payer, key, null, amount, "BRL", null, endToEndId, "payeeKey");
    }

    private Outcome pay(String idempotencyKey, KeyedPayment keyed) {
        return fakes.intake
                .acceptAll(List.of(Order.byKey(A, new IdempotencyKey(idempotencyKey), keyed)))
                .getFirst();
    }

    private static RefusalReason refusal(Outcome outcome) {
        assertThat(outcome).as("%s", outcome).isInstanceOf(Outcome.Rejected.class);
        return ((Outcome.Rejected) outcome).problem().type();
    }
}
