package io.pagora.payments.api.domain.liquidity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.payments.api.domain.liquidity.ReserveWatch.Crossing;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReserveWatchTest {

    private static final Watermarks MARKS = new Watermarks(1_000, 5_000);
    private static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");

    @Test
    void a_balance_hovering_at_the_line_alerts_once() {
        ReserveWatch watch = ReserveWatch.armed(T0);
        List<Crossing> crossings = new ArrayList<>();
        long[] readings = {2_000, 999, 1_001, 998, 1_200, 500, 4_999, 5_000, 900};
        for (int i = 0; i < readings.length; i++) {
            ReserveWatch.Observed observed = watch.read(readings[i], MARKS, T0.plusSeconds(i));
            observed.crossing().ifPresent(crossings::add);
            watch = observed.watch();
        }
        assertThat(crossings).containsExactly(Crossing.FELL_BELOW_LOW);
        assertThat(watch.state()).isEqualTo(ReserveWatch.State.ALERTED);
        assertThat(watch.since()).isEqualTo(T0.plusSeconds(1));
    }

    @Test
    void above_the_high_watermark_it_is_armed_again_and_alerts_at_the_next_fall() {
        ReserveWatch alerted = ReserveWatch.armed(T0).read(999, MARKS, T0).watch();

        ReserveWatch.Observed recovered = alerted.read(5_001, MARKS, T0.plusSeconds(1));
        ReserveWatch.Observed again = recovered.watch().read(10, MARKS, T0.plusSeconds(2));

        assertThat(recovered.crossing()).contains(Crossing.RECOVERED_ABOVE_HIGH);
        assertThat(again.crossing()).contains(Crossing.FELL_BELOW_LOW);
    }

    @Test
    void the_operators_funding_to_the_low_watermark_clears_an_alert() {
        ReserveWatch alerted = ReserveWatch.armed(T0).read(100, MARKS, T0).watch();

        assertThat(alerted.funded(900, MARKS, T0).crossing())
                .as("still below low")
                .isEmpty();
        assertThat(alerted.funded(1_000, MARKS, T0).crossing()).contains(Crossing.CLEARED_BY_FUNDING);
        assertThat(alerted.funded(6_000, MARKS, T0).crossing()).contains(Crossing.RECOVERED_ABOVE_HIGH);
        assertThat(ReserveWatch.armed(T0).funded(100, MARKS, T0).crossing())
                .as("funding that leaves an armed reserve below low: the fall is an alert")
                .isEqualTo(Optional.of(Crossing.FELL_BELOW_LOW));
    }

    @Test
    void watermarks_need_a_gap() {
        assertThatThrownBy(() -> new Watermarks(1_000, 1_000)).hasMessageContaining("above the low one");
        assertThatThrownBy(() -> new Watermarks(0, 1_000)).hasMessageContaining("low watermark");
    }
}
