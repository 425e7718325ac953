package io.pagora.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.e2e.support.Books;
import io.pagora.e2e.support.Books.View;
import io.pagora.e2e.support.Pagora;
import io.pagora.e2e.support.Participants;
import io.pagora.e2e.support.Participants.Customer;
import io.pagora.e2e.support.PaymentBook;
import io.pagora.e2e.support.PaymentBook.Answer;
import io.pagora.e2e.support.PaymentBook.Order;
import io.pagora.e2e.support.Quiescence;
import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentRejected;
import io.pagora.events.Topics;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.ServerBacked;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Proves that a client may safely retry a payment the ledger refused: the same Idempotency-Key and
 * request name the same payment (202, replayed), which is never charged — not even after the payer was
 * funded meanwhile — keeps its one final state REJECTED(INSUFFICIENT_FUNDS) in the read model, and
 * raises no integrity alarm anywhere. Clearing answers a redelivered refused payment
 * {@code REJECTED(PREVIOUSLY_FAILED)} (the ledger keeps the refused transfer ids burned); the read side
 * must take that as the same rejection, not as a contradicting outcome.
 */
@ServerBacked
class RetryOfRefusedPaymentTest {

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void retryingARefusedPaymentChangesNothingAndRaisesNoAlarm() {
        try (Pagora pagora = Pagora.start(new Pagora.Options("postgresql", 1.0, 0.0, Duration.ofSeconds(2), 1))) {
            pagora.startClearing();
            Participants participants = new Participants(pagora.paymentApi());
            participants.registerBank(12_345_678, "Banco A");
            participants.registerBank(87_654_321, "Banco B");
            participants.fundReserve(12_345_678, 10_000_000L);
            participants.fundReserve(87_654_321, 10_000_000L);
            Customer poor = participants.openCustomer(12_345_678, true);
            participants.fundCustomer(poor, 100L);
            Customer payee = participants.openCustomer(87_654_321, false);
            participants.fundCustomer(payee, 1_000L);
            Customer onUsPayee = participants.openCustomer(12_345_678, false);
            participants.fundCustomer(onUsPayee, 1_000L);

            PaymentBook book = new PaymentBook(pagora.paymentApi());
            Order interbank = Order.of(poor.id(), payee.id(), 50_000L);
            Order onUs = Order.of(poor.id(), onUsPayee.id(), 20_000L);
            Answer first = book.pay(interbank);
            assertThat(book.payBatch(List.of(onUs))).allMatch(Answer::accepted);
            Map<PaymentId, View> before =
                    Books.awaitFinalStates(pagora.reporting(), book.accepted(), Duration.ofSeconds(60));
            assertThat(before.values()).extracting(View::outcome).containsOnly("REJECTED(INSUFFICIENT_FUNDS)");

            // The payer is funded now: a retry that settled would be charged. It must not.
            participants.fundCustomer(poor, 100_000L);
            Answer retried = book.pay(interbank);
            assertThat(retried)
                    .as("the same payment, replayed")
                    .isEqualTo(new Answer(202, first.paymentId(), true, null));
            assertThat(book.payBatch(List.of(onUs))).allMatch(answer -> answer.accepted() && answer.replayed());
            Quiescence.await(pagora, Duration.ofSeconds(60));

            Map<PaymentId, View> after =
                    Books.awaitFinalStates(pagora.reporting(), book.accepted(), Duration.ofSeconds(30));
            assertThat(after)
                    .as("the read model keeps the first (and only) final state")
                    .isEqualTo(before);
            List<String> published = pagora.kafka().events(Topics.PAYMENT_OUTCOMES).stream()
                    .map(RetryOfRefusedPaymentTest::describe)
                    .toList();
            Pagora.log("outcomes published for the two payments, each sent twice: %s", published);
            assertThat(published)
                    .as("every outcome published is a rejection")
                    .allMatch(text -> text.startsWith("REJECTED"));
            Books.assertMoneyInvariants(pagora.ledger(), participants.allAccounts(), Duration.ofSeconds(10));
            Books.assertReadModelEqualsLedger(pagora, participants, book.accepted(), after);
            String metrics =
                    pagora.reporting().asOperator().get("/actuator/prometheus").body();
            assertThat(Books.metric(metrics, "pagora_reporting_conflicting_outcomes_total"))
                    .as(
                            "reporting-service raised integrity alarms (CONFLICTING_OUTCOME) for a client's retry of a refused"
                                    + " payment: clearing re-answers it REJECTED(PREVIOUSLY_FAILED), reporting holds"
                                    + " REJECTED(INSUFFICIENT_FUNDS) and calls that a contradiction")
                    .isZero();
        }
    }

    private static String describe(PaymentEvent event) {
        return event instanceof PaymentRejected rejected
                ? "REJECTED(" + rejected.reason() + ")"
                : event.getClass().getSimpleName();
    }
}
