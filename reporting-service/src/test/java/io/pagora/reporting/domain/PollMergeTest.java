package io.pagora.reporting.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.PaymentEvent;
import io.pagora.events.RejectionReason;
import io.pagora.reporting.testsupport.Payments;
import io.pagora.reporting.testsupport.Payments.Payment;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proves the in-poll merge that makes the set-based upsert possible: one fact per payment whatever the
 * number and order of its events in a poll, the first outcome kept, a repeated outcome counted as a
 * duplicate, a different one (or different parties) reported as an alarm, facts ordered by payment id,
 * times truncated to PostgreSQL's microseconds.
 */
class PollMergeTest {

    @Test
    void mergesEachPaymentsEventsIntoOneFactInAnyOrder() {
        Payment a = Payments.any();
        Payment b = Payments.any();
        Instant settledAt = Instant.parse("2030-01-01T00:00:00.123456789Z");
        List<PaymentEvent> poll = List.of(
                b.settled(settledAt), a.requested(), b.requested(), a.requested(), b.settled(settledAt.plusSeconds(1)));

        PollMerge.Result merged = PollMerge.merge(poll);

        assertThat(merged.facts()).hasSize(2);
        assertThat(merged.facts().get(0).paymentId().toString()).isEqualTo(a.paymentId()); // a's id is older
        PaymentFacts factA = merged.facts().get(0);
        assertThat(factA.request()).isNotNull();
        assertThat(factA.outcome()).isNull();
        PaymentFacts factB = merged.facts().get(1);
        assertThat(factB.request().currency()).isEqualTo("BRL");
        assertThat(factB.outcome().status()).isEqualTo(PaymentStatus.SETTLED);
        assertThat(factB.outcome().finalAt())
                .as("the first outcome, in microseconds")
                .isEqualTo(Instant.parse("2030-01-01T00:00:00.123456Z"));
        assertThat(factB.acceptedAt().getNano() % 1_000).isZero();
        assertThat(merged.duplicateEvents()).isEqualTo(2);
        assertThat(merged.alarms()).isEmpty();
    }

    @Test
    void aDifferentSecondOutcomeIsAnAlarmAndTheFirstIsKept() {
        Payment payment = Payments.any();
        PollMerge.Result merged = PollMerge.merge(List.of(
                payment.rejected(RejectionReason.INSUFFICIENT_FUNDS),
                payment.rejected(RejectionReason.UNKNOWN_ACCOUNT),
                payment.settled()));

        FinalState kept = merged.facts().getFirst().outcome();
        assertThat(kept.status()).isEqualTo(PaymentStatus.REJECTED);
        assertThat(kept.reason()).isEqualTo("INSUFFICIENT_FUNDS");
        assertThat(merged.alarms())
                .hasSize(2)
                .allMatch(alarm -> alarm.kind() == IntegrityAlarm.Kind.CONFLICTING_OUTCOME);
    }

    @Test
    void eventsThatDisagreeOnThePartiesAreAnAlarm() {
        Payment payment = Payments.any();
        Payment other = new Payment(
                payment.paymentId(),
                payment.payer(),
                payment.payee(),
                payment.amountCentavos() + 1,
                payment.acceptedAt());
        PollMerge.Result merged = PollMerge.merge(List.of(payment.requested(), other.settled()));

        assertThat(merged.facts().getFirst().amountCentavos()).isEqualTo(payment.amountCentavos());
        assertThat(merged.alarms())
                .singleElement()
                .satisfies(alarm -> assertThat(alarm.kind()).isEqualTo(IntegrityAlarm.Kind.INCONSISTENT_EVENT));
    }

    @Test
    void eventRulesRejectWhatWouldBreakTheTransaction() {
        Payment payment = Payments.any();
        assertThat(EventRules.problemWith(payment.requested())).isEmpty();
        Payment badId = new Payment(
                payment.paymentId().substring(0, 30) + "01", payment.payer(), payment.payee(), 5, payment.acceptedAt());
        assertThat(EventRules.problemWith(badId.requested()))
                .hasValueSatisfying(p -> assertThat(p).contains("paymentId"));
        Payment zero = new Payment(payment.paymentId(), payment.payer(), payment.payee(), 0, payment.acceptedAt());
        assertThat(EventRules.problemWith(zero.requested()))
                .hasValueSatisfying(p -> assertThat(p).contains("amount"));
        Payment badAccount = new Payment(payment.paymentId(), "xyz", payment.payee(), 5, payment.acceptedAt());
        assertThat(EventRules.problemWith(badAccount.settled()))
                .hasValueSatisfying(p -> assertThat(p).contains("account"));
        assertThat(EventRules.problemWith(payment.settled(null)))
                .hasValueSatisfying(p -> assertThat(p).contains("occurredAt"));
        assertThat(EventRules.problemWith(payment.rejected(null)))
                .hasValueSatisfying(p -> assertThat(p).contains("reason"));
    }
}
