package io.pagora.local.launcher.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The chaos command's options record: scenarios in order, {@code all}, the ledger, and what it refuses. */
class ChaosOptionsTest {

    @Test
    void the_scenarios_in_the_order_typed_on_the_platforms_ledger_unless_told() {
        assertThat(ChaosOptions.parse(List.of("poison", "kill-reporting"), "postgresql", false))
                .isEqualTo(new ChaosOptions(List.of("poison", "kill-reporting"), "postgresql"));
        assertThat(ChaosOptions.parse(List.of("--ledger=tigerbeetle", "poison"), "postgresql", false)
                        .ledger())
                .isEqualTo("tigerbeetle");
    }

    @Test
    void all_is_the_single_platforms_catalogue_or_with_scale_the_scaled_ones() {
        assertThat(ChaosOptions.parse(List.of("all"), "postgresql", false).scenarios())
                .isEqualTo(Chaos.catalogue(false))
                .hasSize(10)
                .doesNotContain("kill-kafka-broker");
        assertThat(ChaosOptions.parse(List.of("all"), "postgresql", true).scenarios())
                .isEqualTo(Chaos.catalogue(true))
                .contains("kill-kafka-broker")
                .doesNotContain("poison");
    }

    @Test
    void an_unknown_scenario_or_option_is_refused() {
        assertThatThrownBy(() -> ChaosOptions.parse(List.of("no-such-scenario"), "postgresql", false))
                .hasMessageStartingWith("unknown chaos scenario 'no-such-scenario' (kill-clearing-twice ");
        assertThatThrownBy(() -> ChaosOptions.parse(List.of("poison", "--fast"), "postgresql", false))
                .hasMessage("unknown chaos option: --fast (known: --ledger=...)");
        assertThatThrownBy(() -> ChaosOptions.parse(List.of("poison", "-f"), "postgresql", false))
                .hasMessageContaining("unknown chaos option: -f");
        assertThatThrownBy(() -> ChaosOptions.parse(List.of("kill-kafka-broker"), "postgresql", false))
                .hasMessageContaining("need the scaled platform: chaos --scale kill-kafka-broker");
    }

    @Test
    void the_documented_chaos_command_lines_still_read_as_before() {
        assertThat(ChaosOptions.parse(List.of("kill-clearing-twice", "bank-down"), "postgresql", false))
                .isEqualTo(new ChaosOptions(List.of("kill-clearing-twice", "bank-down"), "postgresql"));
        assertThat(ChaosOptions.parse(List.of("ledger-unavailable", "--ledger=both"), "postgresql", false))
                .isEqualTo(new ChaosOptions(List.of("ledger-unavailable"), "both"));
        assertThat(ChaosOptions.parse(List.of("all", "--ledger=tigerbeetle"), "postgresql", true)
                        .ledger())
                .isEqualTo("tigerbeetle");
    }
}
