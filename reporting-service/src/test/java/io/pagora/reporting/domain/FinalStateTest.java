package io.pagora.reporting.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Specifies which repeated outcomes are the same fact (no alarm) and which are a conflict. */
class FinalStateTest {

    private static final Instant T = Instant.parse("2026-11-21T12:00:00Z");

    @Test
    void aReplayedRefusalThatCanOnlySayPreviouslyFailedIsTheSameRejection() {
        FinalState refused = new FinalState(PaymentStatus.REJECTED, "INSUFFICIENT_FUNDS", "EXCEEDS_CREDITS", T);
        assertThat(refused.sameOutcomeAs(PaymentStatus.REJECTED, "PREVIOUSLY_FAILED"))
                .isTrue();
        assertThat(new FinalState(PaymentStatus.REJECTED, "PREVIOUSLY_FAILED", "ID_ALREADY_FAILED", T)
                        .sameOutcomeAs(PaymentStatus.REJECTED, "INSUFFICIENT_FUNDS"))
                .isTrue();
    }

    @Test
    void differentStatusesOrDifferentKnownReasonsConflict() {
        FinalState refused = new FinalState(PaymentStatus.REJECTED, "INSUFFICIENT_FUNDS", "EXCEEDS_CREDITS", T);
        assertThat(refused.sameOutcomeAs(PaymentStatus.SETTLED, null)).isFalse();
        assertThat(refused.sameOutcomeAs(PaymentStatus.REJECTED, "RECEIVING_BANK_REFUSED"))
                .isFalse();
        assertThat(new FinalState(PaymentStatus.SETTLED, null, null, T).sameOutcomeAs(PaymentStatus.EXPIRED, null))
                .isFalse();
    }
}
