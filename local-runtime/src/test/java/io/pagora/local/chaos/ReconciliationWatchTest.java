package io.pagora.local.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** How chaos kafka-outage judges the online reconciliation from its metrics. */
class ReconciliationWatchTest {

    private static final String METRICS = """
            # HELP pagora_reconciliation_checked_total payments and account balances found equal ...
            # TYPE pagora_reconciliation_checked_total counter
            pagora_reconciliation_checked_total{application="reporting-service",check="account"} 800.0
            pagora_reconciliation_checked_total{application="reporting-service",check="payment"} 12345.0
            pagora_reconciliation_mismatches_total{application="reporting-service",kind="settled_not_posted"} 1.0
            pagora_reconciliation_mismatches_total{application="reporting-service",kind="stuck"} 7.0
            pagora_reconciliation_checked_totalish{check="payment"} 99.0
            """;

    @Test
    void readsOneLabelledSampleOfACounterAndZeroForOneNotExported() {
        assertThat(ReconciliationWatch.sum(METRICS, ReconciliationWatch.CHECKED, "check", "payment"))
                .isEqualTo(12345.0);
        assertThat(ReconciliationWatch.sum(METRICS, ReconciliationWatch.MISMATCHES, "kind", "settled_not_posted"))
                .isEqualTo(1.0);
        assertThat(ReconciliationWatch.sum(METRICS, ReconciliationWatch.MISMATCHES, "kind", "balance"))
                .isZero();
    }

    @Test
    void everyPaymentOwedMustBeJudgedAndNothingOwedIsNoEvidence() {
        assertThat(ReconciliationWatch.everyPaymentJudged(1000, 4000, 3000).passed())
                .isTrue();
        assertThat(ReconciliationWatch.everyPaymentJudged(1000, 3999, 3000).passed())
                .as("one never judged")
                .isFalse();
        assertThat(ReconciliationWatch.everyPaymentJudged(1000, 1000, 0).passed())
                .as("nothing flowed")
                .isFalse();
    }

    @Test
    void thePlantedRowMustBeReported() {
        WrongRowPlant.Planted planted =
                new WrongRowPlant.Planted(UUID.randomUUID(), 2, 100, Instant.parse("2026-11-25T13:00:00Z"));
        assertThat(WrongRowPlant.Planted.parse(planted.line())).isEqualTo(planted);
        assertThat(ReconciliationWatch.plantedReported(planted, 2).passed())
                .as("silent")
                .isFalse();
        assertThat(ReconciliationWatch.plantedReported(planted, 3).passed()).isTrue();
    }
}
