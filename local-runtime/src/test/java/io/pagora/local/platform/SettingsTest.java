package io.pagora.local.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsTest {

    @Test
    void every_knob_has_its_default_when_the_environment_is_silent() {
        Settings settings = Settings.fromEnvironment(Map.of());

        assertThat(settings.integer("RATE")).isEqualTo(200);
        assertThat(settings.duration("PENDING_TIMEOUT")).isEqualTo(Duration.ofSeconds(5));
        assertThat(settings.share("BANK_ACCEPT_RATE")).isEqualTo(0.9);
        assertThat(settings.flag("RECONCILIATION")).isTrue();
        assertThat(settings.optional("TIGERBEETLE_BIN")).isEmpty();
        settings.validate();
    }

    @Test
    void the_environment_overrides_a_default_and_an_empty_value_does_not() {
        Settings settings = Settings.fromEnvironment(Map.of("RATE", "100", "BANKS", ""));

        assertThat(settings.integer("RATE")).isEqualTo(100);
        assertThat(settings.integer("BANKS")).isEqualTo(4);
    }

    @Test
    void a_value_that_does_not_parse_is_refused_naming_its_variable() {
        assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("RATE", "fast")).validate())
                .isInstanceOf(Console.Failure.class).hasMessageContaining("RATE=fast");
        assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("BANK_ACCEPT_RATE", "1.5")).validate())
                .hasMessageContaining("BANK_ACCEPT_RATE=1.5").hasMessageContaining("between 0 and 1");
        assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("PENDING_TIMEOUT", "5 seconds")).validate())
                .hasMessageContaining("PENDING_TIMEOUT");
        assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("RECONCILIATION", "yes")).validate())
                .hasMessageContaining("RECONCILIATION=yes");
        assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("PAYMENTS", "-5")).validate())
                .hasMessageContaining("PAYMENTS=-5");
    }

    @Test
    void a_derived_setting_leaves_the_original_untouched() {
        Settings original = Settings.fromEnvironment(Map.of("TIGERBEETLE_BIN", "/bin/tb"));
        Settings derived = original.with("RATE", "7").without("TIGERBEETLE_BIN");

        assertThat(derived.integer("RATE")).isEqualTo(7);
        assertThat(derived.optional("TIGERBEETLE_BIN")).isEmpty();
        assertThat(original.integer("RATE")).isEqualTo(200);
        assertThat(original.optional("TIGERBEETLE_BIN")).contains("/bin/tb");
    }

    @Test
    void an_unset_variable_without_a_default_is_named() {
        assertThatThrownBy(() -> Settings.fromEnvironment(Map.of()).text("K6_BIN")).hasMessageContaining("K6_BIN");
    }
}
