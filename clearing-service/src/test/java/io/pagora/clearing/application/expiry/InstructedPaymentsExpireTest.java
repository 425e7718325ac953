package io.pagora.clearing.application.expiry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.application.OutcomePublisher;
import io.pagora.clearing.application.Outcomes;
import io.pagora.clearing.application.Report;
import io.pagora.clearing.application.UnansweredPayments;
import io.pagora.clearing.application.UnansweredPayments.Instructed;
import io.pagora.clearing.application.participants.AnswerRequest;
import io.pagora.clearing.application.participants.ApplyingAnswers;
import io.pagora.clearing.application.participants.InstructedEndToEndIds;
import io.pagora.clearing.application.participants.InstructingParticipants;
import io.pagora.clearing.testsupport.Books;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRequested;
import io.pagora.events.participant.RefusalCode;
import io.pagora.events.participant.Verdict;
import io.pagora.kernel.Id128;
import io.pagora.ledger.adapter.postgres.PostgresLedger;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestPostgres;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With participants every instructed payment is parked by its id (and end-to-end id), and the expiry path reads everything else
 * back from the ledger: it expires only what no answer resolved, publishes nothing for the answered (their answers
 * did), agrees with itself when run again, and a late answer to what it expired moves nothing. A parked id the ledger
 * holds no chain of gets no outcome (an integrity alarm), never a guess. On the real PostgreSQL ledger; each test
 * ends with the books.
 */
@ServerBacked
class InstructedPaymentsExpireTest {

    private TestPostgres.Database database;
    private PixWorld world;
    private final List<PaymentOutcome> published = new ArrayList<>();
    private final List<PaymentRequested> instructed = new ArrayList<>();
    private final List<Instructed> parkedIds = new ArrayList<>();
    private final List<PaymentRequested> parkedRequests = new ArrayList<>();
    private InstructingParticipants clearing;
    private ApplyingAnswers answering;
    private ExpiringInstructed expiring;
    private long customers;

    @BeforeEach
    void openLedger() {
        database = TestPostgres.freshDatabase();
        world = new PixWorld(PostgresLedger.migrateAndOpen(database.dataSource()));
        world.fundReserve(PixWorld.BANK_A, 1_000_00);
        UnansweredPayments parked = new UnansweredPayments() {
            @Override
            public void park(List<PaymentRequested> payments, Instant deadline) {
                parkedRequests.addAll(payments);
            }

            @Override
            public void parkInstructed(List<Instructed> payments, Instant deadline) {
                parkedIds.addAll(payments);
            }
        };
        Settlement settlement = new Settlement(world.ledger(), 60);
        OutcomePublisher publisher = (outcomes, payerOnly) -> published.addAll(outcomes);
        Outcomes outcomes = new Outcomes(Clock.systemUTC());
        InstructedEndToEndIds endToEndIds = new InstructedEndToEndIds();
        clearing = new InstructingParticipants(
                settlement,
                issued -> issued.forEach(instruction -> instructed.add(instruction.payment())),
                publisher,
                outcomes,
                parked,
                endToEndIds,
                Clock.systemUTC(),
                Duration.ZERO);
        answering = new ApplyingAnswers(settlement, publisher, outcomes, endToEndIds);
        expiring = new ExpiringInstructed(settlement, publisher, outcomes, endToEndIds);
    }

    @AfterEach
    void closeLedger() {
        database.close();
    }

    @Test
    void theExpiryPathExpiresOnlyWhatNoAnswerResolvedAndALateAnswerMovesNothing() {
        PaymentRequested accepted = payment();
        PaymentRequested refused = payment();
        PaymentRequested silent = payment();
        clearing.clear(List.of(request(accepted), request(refused), request(silent)));
        assertThat(instructed).hasSize(3);
        assertThat(parkedIds)
                .as("every instructed payment is parked, by id")
                .extracting(Instructed::payment)
                .containsExactlyInAnyOrder(id(accepted), id(refused), id(silent));
        assertThat(parkedRequests).isEmpty();
        answering.answer(List.of(
                AnswerRequest.accept(PixWorld.BANK_B, id(accepted)),
                AnswerRequest.refuse(PixWorld.BANK_B, id(refused), RefusalCode.AC06)));

        Report expiry = expiring.expire(parkedIds);
        Report redelivered = expiring.expire(parkedIds);
        List<Verdict> late = answering.answer(List.of(AnswerRequest.accept(PixWorld.BANK_B, id(silent))));

        assertThat(expiry.payments()).isEqualTo(3);
        assertThat(List.of(expiry.expired(), expiry.settled(), expiry.rejected()))
                .containsExactly(1, 0, 0);
        assertThat(redelivered.expired() + redelivered.settled() + redelivered.rejected())
                .as("a redelivered record finds everything resolved")
                .isZero();
        assertThat(late).extracting(Verdict::code).containsExactly(Verdict.Code.EXPIRED);
        Map<String, String> states = Books.check(world, List.of(accepted, refused, silent), published);
        assertThat(states)
                .containsExactly(
                        Map.entry(accepted.paymentId(), "SETTLED"),
                        Map.entry(refused.paymentId(), "REJECTED"),
                        Map.entry(silent.paymentId(), "EXPIRED"));
        assertThat(Books.byPayment(published))
                .allSatisfy((id, outcomes) ->
                        assertThat(outcomes).as("outcomes of %s", id).hasSize(1));
    }

    @Test
    void aParkedIdTheLedgerHoldsNoChainOfGetsNoOutcome() {
        PaymentRequested never = payment();

        Report report = expiring.expire(List.of(parked(never), parked(never)));

        assertThat(report.payments()).as("duplicates count once").isEqualTo(1);
        assertThat(report.expired() + report.settled() + report.rejected()).isZero();
        assertThat(published).isEmpty();
        Books.check(world, List.of(), published);
    }

    @Test
    void aRecordTheExpiryPathFailedOnGetsWhatTheLedgerHoldsAndAReplayAgrees() {
        PaymentRequested accepted = payment();
        PaymentRequested refused = payment();
        PaymentRequested silent = payment();
        PaymentRequested never = payment();
        clearing.clear(List.of(request(accepted), request(refused), request(silent)));
        answering.answer(List.of(
                AnswerRequest.accept(PixWorld.BANK_B, id(accepted)),
                AnswerRequest.refuse(PixWorld.BANK_B, id(refused), RefusalCode.AC06)));
        int answered = published.size();

        Report lastWord = expiring.publishWhatTheLedgerHolds(
                List.of(parked(accepted), parked(refused), parked(silent), parked(never), parked(silent)));

        assertThat(lastWord.payments()).as("duplicates count once").isEqualTo(4);
        assertThat(published.subList(answered, published.size()))
                .as("the ledger's word for each reserved chain; none for the id without one")
                .extracting(PaymentOutcome::paymentId, PaymentOutcome::status)
                .containsExactly(
                        tuple(accepted.paymentId(), "SETTLED"),
                        tuple(refused.paymentId(), "REJECTED"),
                        tuple(silent.paymentId(), "EXPIRED"));
        // The dead-lettered record replayed once the bug is fixed: the chain it called expired is voided, and the
        // outcome is the same one.
        expiring.expire(List.of(parked(silent)));
        Map<String, String> states = Books.check(world, List.of(accepted, refused, silent), published);
        assertThat(states)
                .containsExactly(
                        Map.entry(accepted.paymentId(), "SETTLED"),
                        Map.entry(refused.paymentId(), "REJECTED"),
                        Map.entry(silent.paymentId(), "EXPIRED"));
    }

    private PaymentRequested payment() {
        long number = ++customers;
        Id128 payer = world.openCustomers(PixWorld.BANK_A, number, 1, 100_00).getFirst();
        Id128 payee = world.openCustomers(PixWorld.BANK_B, number, 1, 0).getFirst();
        return world.payment(payer, payee, 10_00);
    }

    private static PaymentId id(PaymentRequested payment) {
        return PaymentId.parse(payment.paymentId());
    }

    private static Instructed parked(PaymentRequested payment) {
        return new Instructed(id(payment), payment.endToEndId());
    }

    private static ClearingRequest request(PaymentRequested event) {
        return new ClearingRequest(event, ClearingRequest.toPayment(event));
    }
}
