package io.pagora.clearing.application.bank;

import static io.pagora.clearing.testsupport.UseCaseWorld.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.pagora.clearing.application.Report;
import io.pagora.clearing.application.expiry.ParkingForExpiry;
import io.pagora.clearing.domain.BankAnswer;
import io.pagora.clearing.testsupport.Books;
import io.pagora.clearing.testsupport.UseCaseWorld;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRejected;
import io.pagora.events.PaymentRequested;
import io.pagora.events.RejectionReason;
import io.pagora.settlement.domain.Payment;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Settling with the in-process bank, on in-memory fakes: one poll is reserved, put to the bank in one call, posted
 * or voided by its answers, and the unanswered are parked, not published.
 */
class SettlingWithTheBankTest {

    private static final Duration MARGIN = Duration.ofSeconds(2);

    private final UseCaseWorld fakes = new UseCaseWorld();
    private final Map<String, BankAnswer> answers = new HashMap<>();
    private int bankCalls;
    private final ReceivingBank bank = payments -> {
        bankCalls++;
        return payments.stream()
                .map(Payment::id)
                .map(id -> answers.get(id.toString()))
                .toList();
    };
    private final SettlingWithTheBank clearing = new SettlingWithTheBank(
            fakes.settlement,
            bank,
            fakes.publisher,
            fakes.outcomes,
            new ParkingForExpiry(fakes.settlement, fakes.unanswered, Clock.systemUTC(), MARGIN));

    @Test
    void aPollIsPostedVoidedAndParkedByTheBanksAnswersInOneCall() {
        PaymentRequested accepted = answered(BankAnswer.ACCEPTED);
        PaymentRequested refused = answered(new BankAnswer.Refused("conta encerrada"));
        PaymentRequested silent = answered(BankAnswer.NO_ANSWER);
        Instant before = Instant.now();

        Report report =
                clearing.clear(List.of(request(accepted), request(refused), request(silent), request(accepted)));

        assertThat(bankCalls).isEqualTo(1);
        assertThat(List.of(report.payments(), report.settled(), report.rejected(), report.unanswered()))
                .as("the duplicate counts once")
                .containsExactly(3, 1, 1, 1);
        assertThat(fakes.published)
                .extracting(PaymentOutcome::paymentId, PaymentOutcome::status, PaymentOutcome::endToEndId)
                .containsExactly(
                        tuple(accepted.paymentId(), "SETTLED", accepted.endToEndId()),
                        tuple(refused.paymentId(), "REJECTED", refused.endToEndId()));
        assertThat(((PaymentRejected) fakes.published.get(1)).detail()).isEqualTo("conta encerrada");
        assertThat(fakes.parkedRequests).containsExactly(silent);
        assertThat(fakes.parkedDeadlines.getFirst())
                .isBetween(
                        before.plusSeconds(UseCaseWorld.PENDING_TIMEOUT_SECONDS).plus(MARGIN),
                        Instant.now()
                                .plusSeconds(UseCaseWorld.PENDING_TIMEOUT_SECONDS)
                                .plus(MARGIN));
    }

    @Test
    void aPaymentTheLedgerRefusesIsRejectedAndNeverPutToTheBank() {
        PaymentRequested broke = fakes.payment(5_00);
        answers.put(broke.paymentId(), BankAnswer.ACCEPTED);

        Report report = clearing.clear(List.of(request(broke)));

        assertThat(bankCalls).as("nothing reserved, nothing to ask").isZero();
        assertThat(report.rejected()).isEqualTo(1);
        assertThat(((PaymentRejected) fakes.published.getFirst()).reason())
                .isEqualTo(RejectionReason.INSUFFICIENT_FUNDS);
        assertThat(Books.check(fakes.world, List.of(broke), fakes.published))
                .containsExactly(Map.entry(broke.paymentId(), "REJECTED"));
    }

    @Test
    void aRedeliveredPollReportsWhatTheLedgerResolvedWhateverTheBankSaysNow() {
        PaymentRequested payment = answered(BankAnswer.ACCEPTED);
        clearing.clear(List.of(request(payment)));
        answers.put(payment.paymentId(), new BankAnswer.Refused("changed its mind"));

        clearing.clear(List.of(request(payment)));

        assertThat(fakes.published).extracting(PaymentOutcome::status).containsExactly("SETTLED", "SETTLED");
        assertThat(Books.check(fakes.world, List.of(payment), List.of(fakes.published.getFirst())))
                .containsExactly(Map.entry(payment.paymentId(), "SETTLED"));
    }

    private PaymentRequested answered(BankAnswer answer) {
        PaymentRequested payment = fakes.payment();
        answers.put(payment.paymentId(), answer);
        return payment;
    }
}
