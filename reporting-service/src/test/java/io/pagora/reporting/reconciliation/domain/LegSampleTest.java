package io.pagora.reporting.reconciliation.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.TimeOrderedIds;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The leg sample: its share of real-shaped (time-ordered) payment ids, deterministic, all or none at the ends. */
class LegSampleTest {

    private static final int PAYMENTS = 100_000;

    private final List<Id128> ids = ids();

    @Test
    void twentyPerMilleSamplesAboutTwoPercentOfTimeOrderedIdsAndAlwaysTheSameOnes() {
        LegSample sample = new LegSample(20);

        long sampled = ids.stream().filter(sample::includes).count();

        assertThat(sampled)
                .as("2 %% of %d ids issued within a few milliseconds", PAYMENTS)
                .isBetween(1_700L, 2_300L);
        assertThat(ids.stream().filter(new LegSample(20)::includes).count())
                .as("deterministic")
                .isEqualTo(sampled);
    }

    @Test
    void noneAndAllAreExact() {
        assertThat(ids.stream().filter(new LegSample(0)::includes)).isEmpty();
        assertThat(ids.stream().allMatch(new LegSample(LegSample.PER_MILLE_ALL)::includes))
                .isTrue();
        assertThatThrownBy(() -> new LegSample(1_001)).hasMessageContaining("0..1000");
    }

    private static List<Id128> ids() {
        TimeOrderedIds generator = new TimeOrderedIds();
        List<Id128> ids = new ArrayList<>(PAYMENTS);
        for (int i = 0; i < PAYMENTS; i++) {
            ids.add(generator.next());
        }
        return ids;
    }
}
