package io.pagora.payments.api.application.returns;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.ReturnReason;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Claim;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Claimed;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Scoped;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Stored;
import io.pagora.payments.api.application.intake.InMemoryIdempotencyKeys;
import io.pagora.payments.api.application.intake.MutableClock;
import io.pagora.payments.api.application.intake.PaymentIntake.Outcome;
import io.pagora.payments.api.application.returns.Returns.ReturnOrder;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.OriginalPayment;
import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.ReturnRules;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.PixId;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.access.Caller;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The returns use case on in-memory fakes (the ledger's originals, the idempotency store, an intake that claims keys
 * and return ids as the real one does): a return that passes its checks is paid through the intake, one that fails them is refused
 * with nothing paid, and a retry of a return accepted earlier is a replay even once the rules that change with time
 * and with other returns would refuse it.
 */
class ReturnsUseCaseTest {

    private static final BankId PAYER_BANK = new BankId(41);
    private static final BankId PAYEE_BANK = new BankId(42);
    private static final Caller PAYEE = Caller.bank(PAYEE_BANK.ispb());
    private static final Duration WINDOW = Duration.ofDays(90);
    private static final Instant SETTLED_AT = Instant.parse("2026-11-01T12:00:00Z");

    private final MutableClock clock = new MutableClock(SETTLED_AT.plusSeconds(60));
    private final TimeOrderedIds ids = new TimeOrderedIds(clock);
    private final Payment payment = new Payment(
            ids.nextPaymentId(),
            ChartOfAccounts.customer(PAYER_BANK, 1),
            ChartOfAccounts.customer(PAYEE_BANK, 1),
            100_00);
    private final Map<PaymentId, OriginalPayment> ledger = new HashMap<>();
    private final InMemoryIdempotencyKeys keys = new InMemoryIdempotencyKeys(clock, 365); // kept past the window
    private final List<PaymentRequest> paid = new ArrayList<>();
    private final Returns returns = new Returns(
            (wanted, visible) -> {
                Map<PaymentId, OriginalPayment> found = new HashMap<>();
                for (PaymentId id : wanted) {
                    OriginalPayment original = ledger.get(id);
                    if (original != null && visible.test(original.payment())) {
                        found.put(id, original);
                    }
                }
                return found;
            },
            new ReturnRules(WINDOW),
            keys,
            this::intake,
            clock);

    ReturnsUseCaseTest() {
        ledger.put(payment.id(), new OriginalPayment(payment, SETTLED_AT, 100_00));
    }

    @Test
    void aReturnThatPassesItsChecksIsPaidBackToThePayerThroughTheIntake() {
        String returnId = PixId.of(PixId.Kind.RETURN, PAYEE_BANK, clock.instant(), "back0000001")
                .value();
        Outcome outcome = returns.request(
                PAYEE,
                new IdempotencyKey("return-1"),
                new ReturnOrder(payment.id(), 40_00, ReturnReason.MD06, returnId, "refund"));

        assertThat(outcome).isInstanceOf(Outcome.Accepted.class);
        assertThat(((Outcome.Accepted) outcome).replayed()).isFalse();
        assertThat(paid)
                .containsExactly(new PaymentRequest(
                        payment.payee(),
                        payment.payer(),
                        40_00,
                        PaymentRequest.CURRENCY_BRL,
                        "refund",
                        returnId,
                        new PaymentRequest.ReturnOf(payment.id(), 100_00, ReturnReason.MD06)));
    }

    @Test
    void aRefusedReturnPaysNothing() {
        Outcome unknown = returns.request(
                PAYEE,
                new IdempotencyKey("unknown"),
                new ReturnOrder(ids.nextPaymentId(), 1_00, ReturnReason.BE08, null, null));
        assertThat(refusalOf(unknown).type()).isEqualTo(RefusalReason.UNKNOWN_PAYMENT);

        Outcome byThePayersBank = returns.request(
                Caller.bank(PAYER_BANK.ispb()),
                new IdempotencyKey("payer"),
                new ReturnOrder(payment.id(), 1_00, ReturnReason.BE08, null, null));
        assertThat(refusalOf(byThePayersBank).type()).isEqualTo(RefusalReason.NOT_THE_PAYEES_BANK);

        Outcome nothing = returns.request(
                PAYEE, new IdempotencyKey("zero"), new ReturnOrder(payment.id(), 0, ReturnReason.BE08, null, null));
        assertThat(refusalOf(nothing).type()).isEqualTo(RefusalReason.INVALID_AMOUNT);
        assertThat(refusalOf(nothing).field()).isEqualTo("amountCentavos");

        assertThat(paid).isEmpty();
    }

    @Test
    void aRetryOfAnAcceptedReturnIsAReplayWhenNothingIsLeftButAnotherRequestIsRefused() {
        IdempotencyKey key = new IdempotencyKey("return-all");
        ReturnOrder all = new ReturnOrder(payment.id(), 100_00, ReturnReason.FR01, null, "fraud");
        Outcome.Accepted first = (Outcome.Accepted) returns.request(PAYEE, key, all);
        ledger.put(payment.id(), new OriginalPayment(payment, SETTLED_AT, 0)); // the ledger now holds it returned

        Outcome retry = returns.request(PAYEE, key, all);
        assertThat(retry)
                .as("the same request under the same key: the same return, replayed")
                .isEqualTo(new Outcome.Accepted(first.paymentId(), first.acceptedAt(), true, first.endToEndId()));

        Outcome another = returns.request(
                PAYEE, key, new ReturnOrder(payment.id(), 100_00, ReturnReason.FR01, null, "fraud, again"));
        assertThat(refusalOf(another).type()).isEqualTo(RefusalReason.RETURN_EXCEEDS_RETURNABLE);
        assertThat(refusalOf(another).numbers()).containsEntry(ReturnRules.RETURNABLE_CENTAVOS, 0L);

        Outcome underAnotherKey = returns.request(PAYEE, new IdempotencyKey("return-all-again"), all);
        assertThat(refusalOf(underAnotherKey).type())
                .as("no return id: another key is another return")
                .isEqualTo(RefusalReason.RETURN_EXCEEDS_RETURNABLE);
        assertThat(paid).as("paid twice: the first time and its replay").hasSize(2);
    }

    @Test
    void aRetryUnderItsReturnIdIsAReplayPastTheWindowAndANewReturnIsRefused() {
        String returnId = PixId.of(PixId.Kind.RETURN, PAYEE_BANK, clock.instant(), "late0000001")
                .value();
        ReturnOrder order = new ReturnOrder(payment.id(), 10_00, ReturnReason.BE08, returnId, null);
        Outcome.Accepted first = (Outcome.Accepted) returns.request(PAYEE, new IdempotencyKey("in-time"), order);

        clock.set(SETTLED_AT.plus(WINDOW).plusSeconds(1));
        Outcome retry = returns.request(PAYEE, new IdempotencyKey("retry-by-its-return-id"), order);
        assertThat(retry)
                .as("the same request under its return id: the same return, replayed")
                .isEqualTo(new Outcome.Accepted(first.paymentId(), first.acceptedAt(), true, returnId));

        Outcome late = returns.request(
                PAYEE,
                new IdempotencyKey("a-new-return"),
                new ReturnOrder(payment.id(), 10_00, ReturnReason.BE08, null, null));
        assertThat(refusalOf(late).type()).isEqualTo(RefusalReason.RETURN_WINDOW_CLOSED);
        assertThat(paid).as("paid twice: the first time and its replay").hasSize(2);
    }

    @Test
    void moreThanTheWholePaymentIsRefusedWithoutLookingForAReplay() {
        keys.afterNextFind(() -> {
            throw new AssertionError("no return of more than the whole payment was ever accepted: nothing to find");
        });
        Outcome outcome = returns.request(
                PAYEE,
                new IdempotencyKey("too-much"),
                new ReturnOrder(payment.id(), 100_01, ReturnReason.BE08, null, null));
        assertThat(refusalOf(outcome).type()).isEqualTo(RefusalReason.RETURN_EXCEEDS_RETURNABLE);
        assertThat(paid).isEmpty();
    }

    /** The intake as the return sees it: claims the key (and the return id) for a new payment id, or replays. */
    private Outcome intake(Caller caller, IdempotencyKey key, PaymentRequest request) {
        paid.add(request);
        PaymentId candidate = ids.nextPaymentId();
        Claim claim = new Claim(
                new Scoped(caller, key),
                request.fingerprint(),
                candidate,
                request.endToEndId() == null ? null : new PixId(request.endToEndId()));
        Claimed claimed = keys.claimAll(List.of(claim), clock.instant()).get(claim.key());
        // The return id names an earlier return made with this request: that one, replayed.
        Stored names = claimed.idOfAnotherKey() != null ? claimed.idOfAnotherKey() : claimed.key();
        return new Outcome.Accepted(names.paymentId(), names.acceptedAt(), !names.inserted(), request.endToEndId());
    }

    private static Refusal refusalOf(Outcome outcome) {
        assertThat(outcome).isInstanceOf(Outcome.Rejected.class);
        return ((Outcome.Rejected) outcome).problem();
    }
}
