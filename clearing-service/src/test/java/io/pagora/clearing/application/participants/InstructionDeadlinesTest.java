package io.pagora.clearing.application.participants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.clearing.adapter.kafka.ParticipantMessages;
import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.application.OutcomePublisher;
import io.pagora.clearing.application.Outcomes;
import io.pagora.clearing.application.Report;
import io.pagora.clearing.application.UnansweredPayments;
import io.pagora.clearing.application.expiry.ExpiringInstructed;
import io.pagora.clearing.testsupport.Books;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRequested;
import io.pagora.events.participant.MessageRecords;
import io.pagora.events.participant.PaymentConcluded;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Transfer;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.LegId;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.ledger.ReferenceLedger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An instruction never promises more time than the ledger gives, and an outcome never precedes its instruction on
 * the bank's stream. Clearing on the in-memory reference ledger, whose clock is the test's: a chain is reserved, the
 * instruction is lost (issuing fails, as in a crash between reserve and instruct), time passes, and the poll is
 * redelivered. The bank's stream is the one ordered list of instructions and outcomes this test's ports write.
 */
class InstructionDeadlinesTest {

    private static final int PENDING_TIMEOUT_SECONDS = 60;
    private static final Duration EXPIRY_MARGIN = Duration.ofSeconds(2);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-28T10:00:00Z"));
    /** The ledger's next call takes this long (a slow reserve call), then calls take no time again. */
    private Duration nextLedgerCallTakes = Duration.ZERO;

    private final ReferenceLedger ledger = new ReferenceLedger(() -> epochNanos(ledgerTime()));
    private final PixWorld world = new PixWorld(ledger);
    /** The bank's stream, in order: instructions and outcomes. */
    private final List<Message> stream = new ArrayList<>();

    private final List<PaymentOutcome> published = new ArrayList<>();
    private final List<UnansweredPayments.Instructed> parked = new ArrayList<>();
    private final List<Instant> parkedDeadlines = new ArrayList<>();
    /** What each bank is told of outcomes: the participant messages the Kafka publisher would write. */
    private final List<Told> told = new ArrayList<>();
    /** Issuing fails while this is set (Kafka unreachable, or the process dies before the instruction is stored). */
    private boolean issuingFails;

    private InstructingParticipants clearing;
    private ExpiringInstructed expiring;

    private sealed interface Message {}

    private record Instructed(String paymentId, Instant answerBy) implements Message {}

    private record Concluded(String paymentId, String status) implements Message {}

    private record Told(String bank, PaymentConcluded.Role role, String paymentId) {}

    @BeforeEach
    void clearing() {
        world.fundReserve(PixWorld.BANK_A, 1_000_00);
        UnansweredPayments unanswered = new UnansweredPayments() {
            @Override
            public void park(List<PaymentRequested> payments, Instant deadline) {
                throw new AssertionError("instructed payments are parked by id");
            }

            @Override
            public void parkInstructed(List<UnansweredPayments.Instructed> payments, Instant deadline) {
                parked.addAll(payments);
                payments.forEach(ignored -> parkedDeadlines.add(deadline));
            }
        };
        Instructions instructions = issued -> {
            if (issuingFails) {
                throw new IllegalStateException("instructions not stored");
            }
            issued.forEach(instruction ->
                    stream.add(new Instructed(instruction.payment().paymentId(), instruction.answerBy())));
        };
        OutcomePublisher outcomes = (results, payerOnly) -> {
            published.addAll(results);
            results.forEach(outcome -> stream.add(new Concluded(outcome.paymentId(), outcome.status())));
            ParticipantMessages.outcomes(results, payerOnly)
                    .forEach(record -> MessageRecords.decode(record.value()).forEach(message -> {
                        PaymentConcluded concluded = (PaymentConcluded) message;
                        told.add(new Told(record.key(), concluded.role(), concluded.paymentId()));
                    }));
        };
        Settlement settlement = new Settlement(ledger, PENDING_TIMEOUT_SECONDS);
        InstructedEndToEndIds endToEndIds = new InstructedEndToEndIds();
        clearing = new InstructingParticipants(
                settlement, instructions, outcomes, new Outcomes(clock), unanswered, endToEndIds, clock, EXPIRY_MARGIN);
        expiring = new ExpiringInstructed(settlement, outcomes, new Outcomes(clock), endToEndIds);
    }

    @Test
    void aReInstructionKeepsTheDeadlineItsReservationSetInTheLedger() {
        PaymentRequested payment = payment();
        Instant reservedAt = clock.instant();
        issuingFails = true;
        assertThatThrownBy(() -> clearing.clear(List.of(request(payment)))).isInstanceOf(IllegalStateException.class);
        assertThat(stream).as("the instruction was lost").isEmpty();

        clock.advance(Duration.ofSeconds(20));
        issuingFails = false;
        clearing.clear(List.of(request(payment))); // the redelivered poll

        Instant lapsesAt = lapseOfFirstLeg(payment);
        // The reference ledger stamps a few nanoseconds past its clock when it stands still: about reservedAt + 60 s.
        assertThat(Duration.between(reservedAt.plusSeconds(PENDING_TIMEOUT_SECONDS), lapsesAt)
                        .abs())
                .isLessThan(Duration.ofMillis(1));
        assertThat(stream)
                .as("instructed once, with the ledger's deadline, not 60 s from the redelivery")
                .containsExactly(new Instructed(payment.paymentId(), lapsesAt));
        assertThat(parkedDeadlines)
                .allSatisfy(deadline -> assertThat(deadline)
                        .isAfterOrEqualTo(lapsesAt)
                        .isBeforeOrEqualTo(lapsesAt.plus(EXPIRY_MARGIN)));
        assertThat(published).isEmpty();
    }

    @Test
    void aChainWhoseDeadlinePassedIsExpiredAndNeverInstructed() {
        PaymentRequested payment = payment();
        issuingFails = true;
        assertThatThrownBy(() -> clearing.clear(List.of(request(payment)))).isInstanceOf(IllegalStateException.class);

        clock.advance(Duration.ofSeconds(PENDING_TIMEOUT_SECONDS + 1));
        issuingFails = false;
        Report report = clearing.clear(List.of(request(payment))); // the redelivered poll

        assertThat(stream)
                .as("no instruction for a lapsed chain; its EXPIRED outcome")
                .containsExactly(new Concluded(payment.paymentId(), "EXPIRED"));
        assertThat(report.expired()).isEqualTo(1);
        assertThat(report.unanswered()).isZero();
        assertThat(Books.check(world, List.of(payment), published))
                .containsExactly(Map.entry(payment.paymentId(), "EXPIRED"));
    }

    @Test
    void anInstructionWhoseIssueKeepsFailingPastTheDeadlineNeverFollowsItsOutcome() {
        PaymentRequested payment = payment();
        issuingFails = true;
        // Every attempt fails while issuing does, until well past the deadline; meanwhile the expiry worker does its
        // work on what is parked, once the parked deadline has passed.
        boolean cleared = false;
        for (int attempt = 0; attempt < 10 && !cleared; attempt++) {
            try {
                clearing.clear(List.of(request(payment)));
                cleared = true;
            } catch (IllegalStateException notStored) {
                clock.advance(Duration.ofSeconds(10));
            }
            if (!parked.isEmpty() && !clock.instant().isBefore(parkedDeadlines.getFirst())) {
                expiring.expire(List.copyOf(parked));
                parked.clear();
                parkedDeadlines.clear();
            }
        }
        issuingFails = false;
        if (!cleared) {
            clearing.clear(List.of(request(payment))); // Kafka is back: the poll is redelivered once more
        }

        assertThat(stream)
                .as("one EXPIRED outcome, and no instruction after it (nor before: none was stored)")
                .containsExactly(new Concluded(payment.paymentId(), "EXPIRED"));
        assertThat(Books.check(world, List.of(payment), published))
                .containsExactly(Map.entry(payment.paymentId(), "EXPIRED"));
    }

    @Test
    void aFreshChainThatLapsesWhileBeingReservedIsToldToThePayerBankOnly() {
        PaymentRequested payment = payment();
        // The reserve call outlasts the pending timeout: the chain is never instructed, so the payee's bank, which
        // never heard of the payment, must not be told it expired.
        nextLedgerCallTakes = Duration.ofSeconds(PENDING_TIMEOUT_SECONDS + 1);
        Report report = clearing.clear(List.of(request(payment)));

        assertThat(stream)
                .as("never instructed; expired")
                .containsExactly(new Concluded(payment.paymentId(), "EXPIRED"));
        assertThat(report.expired()).isEqualTo(1);
        assertThat(told)
                .as("the payer's bank only")
                .containsExactly(
                        new Told(PixWorld.BANK_A.toString(), PaymentConcluded.Role.PAYER, payment.paymentId()));
        assertThat(Books.check(world, List.of(payment), published))
                .containsExactly(Map.entry(payment.paymentId(), "EXPIRED"));
    }

    @Test
    void aRedeliveredChainThatLapsedIsToldToBothBanksForItsFirstAttemptMayHaveInstructedIt() {
        PaymentRequested payment = payment();
        issuingFails = true;
        assertThatThrownBy(() -> clearing.clear(List.of(request(payment)))).isInstanceOf(IllegalStateException.class);

        clock.advance(Duration.ofSeconds(PENDING_TIMEOUT_SECONDS + 1));
        issuingFails = false;
        clearing.clear(List.of(request(payment))); // the redelivered poll

        assertThat(told)
                .containsExactly(
                        new Told(PixWorld.BANK_A.toString(), PaymentConcluded.Role.PAYER, payment.paymentId()),
                        new Told(PixWorld.BANK_B.toString(), PaymentConcluded.Role.PAYEE, payment.paymentId()));
    }

    /** The ledger's clock: the test's, moved on first by however long this call is to take. */
    private Instant ledgerTime() {
        clock.advance(nextLedgerCallTakes);
        nextLedgerCallTakes = Duration.ZERO;
        return clock.instant();
    }

    /** When the payment's first pending leg lapses, read from the ledger: its timestamp plus its timeout. */
    private Instant lapseOfFirstLeg(PaymentRequested payment) {
        Transfer leg = ledger.lookupTransfers(
                        List.of(LegId.of(PaymentId.parse(payment.paymentId()), LegId.Phase.PENDING, 1)))
                .getFirst();
        return Instant.ofEpochSecond(0, leg.timestamp()).plusSeconds(leg.timeoutSeconds());
    }

    private PaymentRequested payment() {
        Id128 payer = world.openCustomers(PixWorld.BANK_A, 1, 1, 100_00).getFirst();
        Id128 payee = world.openCustomers(PixWorld.BANK_B, 1, 1, 0).getFirst();
        return world.payment(payer, payee, 10_00);
    }

    private static ClearingRequest request(PaymentRequested event) {
        return new ClearingRequest(event, ClearingRequest.toPayment(event));
    }

    private static long epochNanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }

    /** The test's clock, shared by clearing and the ledger; moves only when told. */
    private static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
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
