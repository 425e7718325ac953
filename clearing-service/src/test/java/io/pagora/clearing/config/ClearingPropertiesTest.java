package io.pagora.clearing.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** Who answers for the receiving bank is said, never assumed; a value out of range names its key. */
class ClearingPropertiesTest {

    private static ClearingProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("pagora.clearing", ClearingProperties.class);
    }

    @Test
    void the_simulated_bank_is_chosen_by_name() {
        ClearingProperties properties = bind(Map.of("pagora.clearing.receiving-bank", "simulated"));

        assertThat(properties.receivingBank()).isEqualTo(ClearingProperties.SIMULATED_BANK);
        assertThat(properties.bank().acceptRate()).isEqualTo(0.95);
    }

    @Test
    void without_a_receiving_bank_clearing_refuses_to_start_naming_the_key() {
        assertThatThrownBy(() -> bind(Map.of()))
                .rootCause()
                .hasMessageContaining("pagora.clearing.receiving-bank")
                .hasMessageContaining("not null");
        assertThatThrownBy(() -> bind(Map.of("pagora.clearing.receiving-bank", "real")))
                .rootCause()
                .hasMessageContaining("pagora.clearing.receiving-bank")
                .hasMessageContaining("not real");
    }

    @Test
    void a_pending_timeout_that_is_not_whole_seconds_is_refused_naming_the_key() {
        Map<String, String> values = new HashMap<>(Map.of("pagora.clearing.receiving-bank", "provided"));
        values.put("pagora.clearing.pending-timeout", "1500ms");

        assertThatThrownBy(() -> bind(values)).rootCause().hasMessageContaining("pagora.clearing.pending-timeout");
    }
}
