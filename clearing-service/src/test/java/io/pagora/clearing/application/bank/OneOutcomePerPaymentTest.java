package io.pagora.clearing.application.bank;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.application.OutcomePublisher;
import io.pagora.clearing.application.Outcomes;
import io.pagora.clearing.application.Report;
import io.pagora.clearing.application.UnansweredPayments;
import io.pagora.clearing.application.expiry.ExpiringUnanswered;
import io.pagora.clearing.application.expiry.ParkingForExpiry;
import io.pagora.clearing.domain.BankAnswer;
import io.pagora.clearing.testsupport.Books;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Id128;
import io.pagora.ledger.adapter.postgres.PostgresLedger;
import io.pagora.settlement.application.Settlement;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestPostgres;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One payment, one final outcome, whichever path reaches the ledger first and in whatever order the
 * paths run — proven on the real PostgreSQL ledger, with the receiving bank, the outcome topic and the
 * expiry queue as in-memory ports:
 * <ul>
 *   <li>a poll redelivered to a clearing restarted with another pending timeout reports the payment
 *       the ledger posted as SETTLED, not as an idempotency conflict;
 *   <li>the expiry path and the refusal path racing for one payment both report what the first void
 *       recorded: EXPIRED if the expiry path voided first, REJECTED if the refusal did;
 *   <li>a payment set aside (dead-lettered and parked) before it was ever reserved still expires, and a
 *       replay of it agrees;
 *   <li>a different payment under a settled payment's id is an integrity alarm with no outcome, never a
 *       refusal.
 * </ul>
 * Each ends with the books: every payment in exactly one final state, zero-sum, nothing negative.
 */
@ServerBacked
class OneOutcomePerPaymentTest {

    private TestPostgres.Database database;
    private PixWorld world;
    private final ScriptedBank bank = new ScriptedBank();
    private final List<PaymentOutcome> published = new ArrayList<>();
    private final List<PaymentRequested> parked = new ArrayList<>();
    private final OutcomePublisher publisher = (outcomes, payerOnly) -> published.addAll(outcomes);
    /** Clearing as configured: pending chains time out after 60 s. */
    private SettlingWithTheBank clearing;

    private ExpiringUnanswered expiring;

    @BeforeEach
    void openLedger() {
        database = TestPostgres.freshDatabase();
        world = new PixWorld(PostgresLedger.migrateAndOpen(database.dataSource()));
        world.fundReserve(PixWorld.BANK_A, 1_000_00);
        clearing = clearing(60);
        expiring = new ExpiringUnanswered(
                new Settlement(world.ledger(), 60), publisher, new Outcomes(Clock.systemUTC()), false);
    }

    @AfterEach
    void closeLedger() {
        database.close();
    }

    @Test
    void aPollRedeliveredUnderAnotherPendingTimeoutReportsWhatTheLedgerPosted() {
        PaymentRequested payment = payment();
        clear(payment, BankAnswer.ACCEPTED);
        // The outcome was published, but clearing died before committing the poll; it restarts with
        // another pagora.clearing.pending-timeout and the poll is redelivered.
        Report again = clear(clearing(90), payment);

        assertThat(again.alarms()).isEmpty();
        books(payment, "SETTLED", "SETTLED");
    }

    @Test
    void anExpiryThatVoidedFirstStaysExpiredWhenALateRefusalArrives() {
        PaymentRequested payment = payment();
        clear(payment, BankAnswer.NO_ANSWER);
        assertThat(parked).hasSize(1);
        expire(payment);
        // A redelivery of the original poll now gets an answer: the bank refuses.
        clear(payment, new BankAnswer.Refused("conta encerrada"));

        books(payment, "EXPIRED", "EXPIRED");
    }

    @Test
    void aRefusalThatVoidedFirstStaysRejectedWhenTheExpiryPathRuns() {
        PaymentRequested payment = payment();
        clear(payment, BankAnswer.NO_ANSWER);
        clear(payment, new BankAnswer.Refused("conta\u0000 encerrada"));
        // The attempt that got no answer was parked, and the expiry worker reaches it now.
        expire(payment);

        assertThat(published.getFirst().toString())
                .as("the bank's text is cleaned")
                .contains("conta  encerrada");
        books(payment, "REJECTED", "REJECTED");
    }

    @Test
    void aPaymentSetAsideBeforeItWasReservedStillExpiresAndAReplayAgrees() {
        // Clearing failed on this payment alone before reserving it; it was dead-lettered and parked.
        PaymentRequested payment = payment();
        expire(payment);
        // Replayed later from the dead-letter topic, with a bank that accepts.
        clear(payment, BankAnswer.ACCEPTED);

        books(payment, "EXPIRED", "EXPIRED");
    }

    @Test
    void aDifferentPaymentUnderASettledIdIsAnAlarmAndNeverARefusal() {
        PaymentRequested payment = payment();
        clear(payment, BankAnswer.ACCEPTED);
        PaymentRequested impostor = new PaymentRequested(
                payment.paymentId(),
                payment.payerAccountId(),
                payment.payeeAccountId(),
                7_00,
                "BRL",
                "same id, other amount",
                "E2E-impostor",
                Instant.now());

        Report report = clear(impostor, BankAnswer.ACCEPTED);

        assertThat(report.alarms()).hasSize(1);
        assertThat(report.rejected()).isZero();
        books(payment, "SETTLED");
    }

    /** The outcomes published, in order, then the books: every payment in one final state, zero-sum, nothing negative. */
    private void books(PaymentRequested payment, String... statuses) {
        assertThat(statuses()).containsExactly(statuses);
        Books.check(world, List.of(payment), List.of(published.getFirst()));
        assertThat(Books.byPayment(published).get(payment.paymentId()).stream()
                        .map(PaymentOutcome::status)
                        .distinct())
                .as("one final state for %s", payment.paymentId())
                .hasSize(1);
    }

    private PaymentRequested payment() {
        Id128 payer = world.openCustomers(PixWorld.BANK_A, 1, 1, 100_00).getFirst();
        Id128 payee = world.openCustomers(PixWorld.BANK_B, 1, 1, 0).getFirst();
        return world.payment(payer, payee, 10_00);
    }

    private SettlingWithTheBank clearing(int pendingTimeoutSeconds) {
        Settlement settlement = new Settlement(world.ledger(), pendingTimeoutSeconds);
        return new SettlingWithTheBank(
                settlement,
                bank,
                publisher,
                new Outcomes(Clock.systemUTC()),
                new ParkingForExpiry(
                        settlement,
                        new UnansweredPayments() {
                            @Override
                            public void park(List<PaymentRequested> payments, Instant deadline) {
                                parked.addAll(payments);
                            }

                            @Override
                            public void parkInstructed(List<Instructed> payments, Instant deadline) {
                                throw new AssertionError("the in-process bank instructs no one");
                            }
                        },
                        Clock.systemUTC(),
                        Duration.ZERO));
    }

    /** Clears the payment with the configured clearing, the receiving bank answering {@code answer}. */
    private Report clear(PaymentRequested payment, BankAnswer answer) {
        bank.answer = answer;
        return clear(clearing, payment);
    }

    private static Report clear(SettlingWithTheBank clearing, PaymentRequested payment) {
        return clearing.clear(List.of(request(payment)));
    }

    private void expire(PaymentRequested payment) {
        expiring.expire(List.of(request(payment)));
    }

    private static ClearingRequest request(PaymentRequested event) {
        return new ClearingRequest(event, ClearingRequest.toPayment(event));
    }

    private List<String> statuses() {
        return published.stream().map(PaymentOutcome::status).toList();
    }

    /** The receiving bank answers whatever the test scripted, for every payment. */
    private static final class ScriptedBank implements ReceivingBank {
        BankAnswer answer = BankAnswer.ACCEPTED;

        @Override
        public List<BankAnswer> decide(List<io.pagora.settlement.domain.Payment> payments) {
            return payments.stream().map(payment -> answer).toList();
        }
    }
}
