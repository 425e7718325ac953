package io.pagora.local.launcher;

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
        assertThatThrownBy(
                        () -> Settings.fromEnvironment(Map.of("RATE", "fast")).validate())
                .isInstanceOf(Console.Failure.class)
                .hasMessageContaining("RATE=fast");
        assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("BANK_ACCEPT_RATE", "1.5"))
                        .validate())
                .hasMessageContaining("BANK_ACCEPT_RATE=1.5")
                .hasMessageContaining("between 0 and 1");
        assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("PENDING_TIMEOUT", "5 seconds"))
                        .validate())
                .hasMessageContaining("PENDING_TIMEOUT");
        assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("RECONCILIATION", "yes"))
                        .validate())
                .hasMessageContaining("RECONCILIATION=yes");
        assertThatThrownBy(
                        () -> Settings.fromEnvironment(Map.of("PAYMENTS", "-5")).validate())
                .hasMessageContaining("PAYMENTS=-5");
    }

    @Test
    void connections_that_would_not_fit_below_the_services_bound_are_refused_before_anything_starts() {
        // k6's bank at 1,000 and four banks of the simulator's: past payment-api's 1,024 (the participants' demo
        // failed).
        assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("PARTICIPANT_CONNECTIONS_MAX", "1000"))
                        .validate())
                .isInstanceOf(Console.Failure.class)
                .hasMessageContaining("PARTICIPANT_CONNECTIONS_MAX (1000)");
        assertThatThrownBy(() -> Settings.fromEnvironment(Map.of("BANKS", "12")).validate())
                .hasMessageContaining("max-connections (1024)");
        // k6 is one bank, and the simulator acts for it too: more connections than its bound would be refused.
        assertThatThrownBy(() ->
                        Settings.fromEnvironment(Map.of("K6_MAX_VUS", "784")).k6Fits())
                .isInstanceOf(Console.Failure.class)
                .hasMessageContaining("K6_MAX_VUS (784)");
        Settings.fromEnvironment(Map.of("K6_MAX_VUS", "783")).k6Fits();
        Settings.fromEnvironment(Map.of()).k6Fits();
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
        assertThatThrownBy(() -> Settings.fromEnvironment(Map.of()).text("K6_BIN"))
                .hasMessageContaining("K6_BIN");
    }
}
