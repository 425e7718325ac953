package io.pagora.payments.api.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.application.intake.PaymentIntake;
import io.pagora.payments.api.application.intake.PaymentIntake.Outcome;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import org.junit.jupiter.api.Test;

/**
 * A batch item REJECTED is final (the OpenAPI document says so), so a batch that was never looked at is not answered
 * item by item: admission control refusing it inside the intake (clearing fell behind between the controller's check
 * and the intake's) answers the whole batch 429, to be retried as is — its replayed keys may name payments that
 * settle. A batch whose broker failures include an item that may be published answers outcome-unknown.
 */
class BatchResultTest {

    @Test
    void aBatchAdmissionControlRefusedAsAWholeIsAnswered429NotItemByItem() {
        Refusal overloaded = Refusal.of(RefusalReason.OVERLOADED, "clearing is behind");
        BatchResult.Tally tally = new BatchResult.Tally(2);
        tally.add(new Outcome.Rejected(overloaded));
        tally.add(new Outcome.Rejected(overloaded));

        assertThat(tally.wholeBatchProblem()).isEqualTo(overloaded);
        assertThat(Problems.statusOf(tally.wholeBatchProblem().type()).value()).isEqualTo(429);
    }

    @Test
    void aBatchWithAnItemThatMayBePublishedAndNoneAcceptedIsOutcomeUnknown() {
        BatchResult.Tally tally = new BatchResult.Tally(2);
        tally.add(new Outcome.Rejected(Refusal.of(RefusalReason.BROKER_UNAVAILABLE, "nothing was published")));
        tally.add(PaymentIntake.unknown("p", "not confirmed"));

        assertThat(tally.wholeBatchProblem().type()).isEqualTo(RefusalReason.OUTCOME_UNKNOWN);
    }
}
