package io.pagora.clearing.application.expiry;

import static io.pagora.clearing.testsupport.UseCaseWorld.parked;
import static io.pagora.clearing.testsupport.UseCaseWorld.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.pagora.clearing.application.Report;
import io.pagora.clearing.application.participants.InstructedEndToEndIds;
import io.pagora.clearing.testsupport.UseCaseWorld;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRequested;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Expiring instructed payments parked by id, on in-memory fakes: the answered are dropped after one lookup, the rest
 * voided as unanswered, an id with no reserved chain gets no outcome; each outcome carries the parked end-to-end id.
 */
class ExpiringInstructedTest {

    private final UseCaseWorld fakes = new UseCaseWorld();
    private final ExpiringInstructed expiring =
            new ExpiringInstructed(fakes.settlement, fakes.publisher, fakes.outcomes, new InstructedEndToEndIds());

    @Test
    void onlyWhatNoAnswerResolvedExpiresAndAnIdWithoutAChainGetsNoOutcome() {
        PaymentRequested answered = reserved();
        fakes.settlement.post(List.of(request(answered).payment()));
        PaymentRequested silent = reserved();
        PaymentRequested never = fakes.payment();

        Report report = expiring.expire(List.of(parked(answered), parked(silent), parked(never), parked(silent)));
        Report again = expiring.expire(List.of(parked(silent)));

        assertThat(report.payments()).as("duplicates count once").isEqualTo(3);
        assertThat(report.expired()).isEqualTo(1);
        assertThat(List.of(again.payments(), again.expired()))
                .as("resolved now: nothing to publish")
                .containsExactly(1, 0);
        assertThat(fakes.published)
                .extracting(PaymentOutcome::paymentId, PaymentOutcome::status, PaymentOutcome::endToEndId)
                .containsExactly(tuple(silent.paymentId(), "EXPIRED", silent.endToEndId()));
    }

    @Test
    void theLastWordReadsEachChainBackAndWritesNothing() {
        PaymentRequested answered = reserved();
        fakes.settlement.post(List.of(request(answered).payment()));
        PaymentRequested open = reserved();

        expiring.publishWhatTheLedgerHolds(List.of(parked(answered), parked(open)));

        assertThat(fakes.published)
                .extracting(PaymentOutcome::paymentId, PaymentOutcome::status, PaymentOutcome::endToEndId)
                .containsExactly(
                        tuple(answered.paymentId(), "SETTLED", answered.endToEndId()),
                        tuple(open.paymentId(), "EXPIRED", open.endToEndId()));
        assertThat(fakes.settlement.resolved(List.of(request(open).payment().id())))
                .containsExactly(false);
    }

    private PaymentRequested reserved() {
        PaymentRequested payment = fakes.payment();
        fakes.settlement.reserve(List.of(request(payment).payment()));
        return payment;
    }
}
