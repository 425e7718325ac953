package io.pagora.payments.api.application.intake;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Scoped;
import io.pagora.payments.api.application.intake.PaymentIntake.Outcome;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PixId;
import io.pagora.settlement.domain.access.Caller;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A replay is recognised while its key is kept, however old the end-to-end id it names: a client retrying an UNKNOWN
 * on the last day its key exists gets its payment, never a final 400 for a payment that exists. On in-memory fakes: an
 * idempotency store that keeps a key claimed on day D through day D + retention, as the partition job does
 * (JdbcIdempotencyPartitions drops day D's partition once today - retention is past it), on a test clock.
 */
class EndToEndIdReplayTest {

    private static final int RETENTION_DAYS = 7;
    private static final BankId PAYER_BANK = IntakeOnFakes.PAYER_BANK;
    private static final Caller CALLER = Caller.bank(PAYER_BANK.ispb());

    private final IntakeOnFakes fakes = new IntakeOnFakes(Instant.parse("2026-11-20T10:00:00Z"), RETENTION_DAYS);
    private final MutableClock clock = fakes.clock;
    private final InMemoryIdempotencyKeys keys = fakes.keys;
    private final List<PaymentRequested> published = fakes.published;
    private final PaymentIntake intake = fakes.intake;
    private final Id128 payer = fakes.payer;
    private final Id128 payee = fakes.payee;

    @Test
    void aReplayOnTheLastDayItsKeyIsKeptIsAReplayAndTheDayAfterAnOldIdIsRefused() {
        IdempotencyKey key = new IdempotencyKey("retry-of-an-unknown");
        PaymentRequest request = new PaymentRequest(
                payer,
                payee,
                12_34,
                PaymentRequest.CURRENCY_BRL,
                "rent",
                PixId.of(PixId.Kind.END_TO_END, PAYER_BANK, clock.instant(), "lastDay0001")
                        .value());
        Outcome first = intake.accept(CALLER, key, request);
        assertThat(first).isInstanceOf(Outcome.Accepted.class);
        Outcome.Accepted accepted = (Outcome.Accepted) first;
        assertThat(accepted.replayed()).isFalse();

        clock.set(Instant.parse("2026-11-27T23:59:00Z")); // day D + 7: the key is still kept
        assertThat(keys.find(List.of(new Scoped(CALLER, key))))
                .as("the key exists")
                .hasSize(1);
        Outcome lastDay = intake.accept(CALLER, key, request);
        assertThat(lastDay)
                .as("the same payment, replayed")
                .isEqualTo(
                        new Outcome.Accepted(accepted.paymentId(), accepted.acceptedAt(), true, accepted.endToEndId()));

        clock.set(Instant.parse("2026-11-28T00:01:00Z")); // day D + 8: the key and the id's claim are gone
        assertThat(keys.find(List.of(new Scoped(CALLER, key))))
                .as("the key is gone")
                .isEmpty();
        int publishedBefore = published.size();
        Outcome dayAfter = intake.accept(CALLER, key, request);
        assertThat(dayAfter).isInstanceOf(Outcome.Rejected.class);
        assertThat(((Outcome.Rejected) dayAfter).problem().type())
                .isEqualTo(io.pagora.payments.api.domain.RefusalReason.INVALID_END_TO_END_ID);
        assertThat(published).as("nothing published for the refused").hasSize(publishedBefore);
    }

    @Test
    void aKeyDroppedBetweenItsLookUpAndItsClaimNeverMakesANewPaymentUnderAnOldId() {
        IdempotencyKey key = new IdempotencyKey("retry-across-the-drop");
        PaymentRequest request = new PaymentRequest(
                payer,
                payee,
                12_34,
                PaymentRequest.CURRENCY_BRL,
                "rent",
                PixId.of(PixId.Kind.END_TO_END, PAYER_BANK, clock.instant(), "dropRace001")
                        .value());
        Outcome.Accepted first = (Outcome.Accepted) intake.accept(CALLER, key, request);

        clock.set(Instant.parse("2026-11-27T23:59:00Z")); // day D + 7: the key is kept when it is looked up...
        keys.afterNextFind(keys::dropAll); // ...and the retention job drops day D's partition right after
        Outcome retry = intake.accept(CALLER, key, request);

        assertThat(published)
                .as("no payment but the first under its end-to-end id")
                .extracting(PaymentRequested::paymentId)
                .containsOnly(first.paymentId().toString());
        assertThat(retry)
                .as("the payment the key named when it was looked up, replayed")
                .isEqualTo(new Outcome.Accepted(first.paymentId(), first.acceptedAt(), true, first.endToEndId()));
        assertThat(keys.find(List.of(new Scoped(CALLER, key))))
                .as("the dropped key is not claimed again")
                .isEmpty();
    }

    @Test
    void theSameRequestUnderAnotherKeyIsAReplayWhileItsEndToEndIdIsKeptHoweverOld() {
        PaymentRequest request = new PaymentRequest(
                payer,
                payee,
                12_34,
                PaymentRequest.CURRENCY_BRL,
                "rent",
                PixId.of(PixId.Kind.END_TO_END, PAYER_BANK, clock.instant(), "otherKey001")
                        .value());
        Outcome.Accepted first = (Outcome.Accepted) intake.accept(CALLER, new IdempotencyKey("first-key"), request);

        clock.set(Instant.parse("2026-11-27T23:59:00Z")); // day D + 7: the id's claim is still kept
        Outcome underAnotherKey = intake.accept(CALLER, new IdempotencyKey("another-key"), request);
        assertThat(underAnotherKey)
                .as("the same payment, replayed")
                .isEqualTo(new Outcome.Accepted(first.paymentId(), first.acceptedAt(), true, first.endToEndId()));

        PaymentRequest another =
                new PaymentRequest(payer, payee, 99_99, PaymentRequest.CURRENCY_BRL, "rent", request.endToEndId());
        Outcome reuse = intake.accept(CALLER, new IdempotencyKey("a-third-key"), another);
        assertThat(reuse)
                .as("another request with the old id is a new payment: refused")
                .isInstanceOf(Outcome.Rejected.class);
        assertThat(((Outcome.Rejected) reuse).problem().type())
                .isEqualTo(io.pagora.payments.api.domain.RefusalReason.INVALID_END_TO_END_ID);
        assertThat(published)
                .extracting(PaymentRequested::paymentId)
                .containsOnly(first.paymentId().toString());
    }
}
