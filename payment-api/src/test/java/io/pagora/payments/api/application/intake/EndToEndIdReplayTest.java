package io.pagora.payments.api.application.intake;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Claim;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Scoped;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Stored;
import io.pagora.payments.api.application.intake.PaymentIntake.Outcome;
import io.pagora.payments.api.application.intake.PaymentPublisher.Publication;
import io.pagora.payments.api.application.limits.ParticipantTokenBuckets;
import io.pagora.payments.api.application.limits.UnknownAccountLimit;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.payments.api.domain.PaymentRules;
import io.pagora.settlement.application.AccessRefusals;
import io.pagora.settlement.application.Participants;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PixId;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.access.Caller;
import io.pagora.testing.ledger.ReferenceLedger;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A replay is recognised while its key is kept, however old the end-to-end id it names: a client retrying an UNKNOWN
 * on the last day its key exists gets its payment, never a final 400 for a payment that exists. On in-memory fakes: an
 * idempotency store that keeps a key claimed on day D through day D + retention, as the partition job does
 * (JdbcIdempotencyPartitions drops day D's partition once today - retention is past it), on a test clock.
 */
class EndToEndIdReplayTest {

    private static final int RETENTION_DAYS = 7;
    private static final BankId PAYER_BANK = new BankId(31);
    private static final BankId PAYEE_BANK = new BankId(32);
    private static final Caller CALLER = Caller.bank(31);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-20T10:00:00Z"));
    private final RetainedKeys keys = new RetainedKeys();
    private final List<PaymentRequested> published = new ArrayList<>();
    private final PaymentIntake intake;
    private final Id128 payer = ChartOfAccounts.customer(PAYER_BANK, 1);
    private final Id128 payee = ChartOfAccounts.customer(PAYEE_BANK, 1);

    EndToEndIdReplayTest() {
        ReferenceLedger ledger = ReferenceLedger.onWallClock();
        Participants participants = new Participants(ledger);
        participants.openCentralBank();
        participants.registerBank(PAYER_BANK);
        participants.registerBank(PAYEE_BANK);
        participants.openCustomers(PAYER_BANK, List.of(1L));
        participants.openCustomers(PAYEE_BANK, List.of(1L));
        PaymentPublisher publisher = events -> {
            published.addAll(events);
            return events.stream().map(event -> (Publication) new Publication.Acked()).toList();
        };
        intake = new PaymentIntake(new PaymentRules(1_000_000_00L, RETENTION_DAYS), new AccountDirectory(ledger, 1_000),
                keys, publisher, new TimeOrderedIds(clock), clock, new Admission(() -> 0, 1_000_000, 1_000),
                AccessRefusals.UNCOUNTED,
                new UnknownAccountLimit(new ParticipantTokenBuckets(1_000, 1_000, 16, System::nanoTime)));
    }

    @Test
    void aReplayOnTheLastDayItsKeyIsKeptIsAReplayAndTheDayAfterAnOldIdIsRefused() {
        IdempotencyKey key = new IdempotencyKey("retry-of-an-unknown");
        PaymentRequest request = new PaymentRequest(payer, payee, 12_34, PaymentRequest.CURRENCY_BRL, "rent",
                PixId.of(PixId.Kind.END_TO_END, PAYER_BANK, clock.instant(), "lastDay0001").value());
        Outcome first = intake.accept(CALLER, key, request);
        assertThat(first).isInstanceOf(Outcome.Accepted.class);
        Outcome.Accepted accepted = (Outcome.Accepted) first;
        assertThat(accepted.replayed()).isFalse();

        clock.set(Instant.parse("2026-11-27T23:59:00Z")); // day D + 7: the key is still kept
        assertThat(keys.find(List.of(new Scoped(CALLER, key)))).as("the key exists").hasSize(1);
        Outcome lastDay = intake.accept(CALLER, key, request);
        assertThat(lastDay).as("the same payment, replayed")
                .isEqualTo(new Outcome.Accepted(accepted.paymentId(), accepted.acceptedAt(), true, accepted.endToEndId()));

        clock.set(Instant.parse("2026-11-28T00:01:00Z")); // day D + 8: the key and the id's claim are gone
        assertThat(keys.find(List.of(new Scoped(CALLER, key)))).as("the key is gone").isEmpty();
        int publishedBefore = published.size();
        Outcome dayAfter = intake.accept(CALLER, key, request);
        assertThat(dayAfter).isInstanceOf(Outcome.Rejected.class);
        assertThat(((Outcome.Rejected) dayAfter).problem().type()).isEqualTo(io.pagora.payments.api.domain.RefusalReason.INVALID_END_TO_END_ID);
        assertThat(published).as("nothing published for the refused").hasSize(publishedBefore);
    }

    @Test
    void aKeyDroppedBetweenItsLookUpAndItsClaimNeverMakesANewPaymentUnderAnOldId() {
        IdempotencyKey key = new IdempotencyKey("retry-across-the-drop");
        PaymentRequest request = new PaymentRequest(payer, payee, 12_34, PaymentRequest.CURRENCY_BRL, "rent",
                PixId.of(PixId.Kind.END_TO_END, PAYER_BANK, clock.instant(), "dropRace001").value());
        Outcome.Accepted first = (Outcome.Accepted) intake.accept(CALLER, key, request);

        clock.set(Instant.parse("2026-11-27T23:59:00Z")); // day D + 7: the key is kept when it is looked up...
        keys.afterNextFind = keys.stored::clear; // ...and the retention job drops day D's partition right after
        Outcome retry = intake.accept(CALLER, key, request);

        assertThat(published).as("no payment but the first under its end-to-end id")
                .extracting(PaymentRequested::paymentId).containsOnly(first.paymentId().toString());
        assertThat(retry).as("the payment the key named when it was looked up, replayed")
                .isEqualTo(new Outcome.Accepted(first.paymentId(), first.acceptedAt(), true, first.endToEndId()));
        assertThat(keys.find(List.of(new Scoped(CALLER, key)))).as("the dropped key is not claimed again").isEmpty();
    }

    @Test
    void theSameRequestUnderAnotherKeyIsAReplayWhileItsEndToEndIdIsKeptHoweverOld() {
        PaymentRequest request = new PaymentRequest(payer, payee, 12_34, PaymentRequest.CURRENCY_BRL, "rent",
                PixId.of(PixId.Kind.END_TO_END, PAYER_BANK, clock.instant(), "otherKey001").value());
        Outcome.Accepted first = (Outcome.Accepted) intake.accept(CALLER, new IdempotencyKey("first-key"), request);

        clock.set(Instant.parse("2026-11-27T23:59:00Z")); // day D + 7: the id's claim is still kept
        Outcome underAnotherKey = intake.accept(CALLER, new IdempotencyKey("another-key"), request);
        assertThat(underAnotherKey).as("the same payment, replayed")
                .isEqualTo(new Outcome.Accepted(first.paymentId(), first.acceptedAt(), true, first.endToEndId()));

        PaymentRequest another = new PaymentRequest(payer, payee, 99_99, PaymentRequest.CURRENCY_BRL, "rent",
                request.endToEndId());
        Outcome reuse = intake.accept(CALLER, new IdempotencyKey("a-third-key"), another);
        assertThat(reuse).as("another request with the old id is a new payment: refused").isInstanceOf(Outcome.Rejected.class);
        assertThat(((Outcome.Rejected) reuse).problem().type())
                .isEqualTo(io.pagora.payments.api.domain.RefusalReason.INVALID_END_TO_END_ID);
        assertThat(published).extracting(PaymentRequested::paymentId).containsOnly(first.paymentId().toString());
    }

    /** The idempotency store as its partitions keep it: a key claimed on day D is found through D + retention. */
    private final class RetainedKeys implements IdempotencyKeys {
        private final Map<Scoped, Stored> stored = new HashMap<>();
        /** Run once after the next look-up: what happens between it and the claim. */
        private Runnable afterNextFind = () -> {};

        @Override
        public Map<Scoped, Stored> claimAll(List<Claim> claims, Instant acceptedAt) {
            Map<Scoped, Stored> answers = new HashMap<>();
            for (Claim claim : claims) {
                Stored kept = kept(claim.key());
                if (kept == null) {
                    kept = new Stored(claim.key(), claim.requestSha256(), claim.candidateId(), acceptedAt, true);
                    stored.put(claim.key(), kept);
                    answers.put(claim.key(), kept);
                } else {
                    answers.put(claim.key(), new Stored(kept.key(), kept.requestSha256(), kept.paymentId(),
                            kept.acceptedAt(), false));
                }
            }
            return answers;
        }

        @Override
        public Map<Scoped, Stored> find(List<Scoped> wanted) {
            Map<Scoped, Stored> found = new HashMap<>();
            for (Scoped key : wanted) {
                Stored kept = kept(key);
                if (kept != null) {
                    found.put(key, kept);
                }
            }
            Runnable after = afterNextFind;
            afterNextFind = () -> {};
            after.run();
            return found;
        }

        /** The key as kept today, or null once its day's partition is dropped (or never claimed). */
        private Stored kept(Scoped key) {
            LocalDate oldestKept = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC).minusDays(RETENTION_DAYS);
            Stored kept = stored.get(key);
            if (kept == null || LocalDate.ofInstant(kept.acceptedAt(), ZoneOffset.UTC).isBefore(oldestKept)) {
                return null;
            }
            return new Stored(kept.key(), kept.requestSha256(), kept.paymentId(), kept.acceptedAt(), false);
        }
    }

    private static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void set(Instant instant) {
            now = instant;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
