package io.pagora.local.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.local.launcher.platform.Platform;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LauncherHelpTest {

    @Test
    void every_command_has_its_own_help() {
        for (String command : Launcher.COMMANDS) {
            if (command.equals("help")) {
                continue;
            }
            assertThat(Launcher.help(command))
                    .as(command)
                    .startsWith("  infra/local/pagora")
                    .contains(command)
                    .doesNotContain("\n\n");
        }
    }

    @Test
    void one_commands_help_stops_before_the_next_command() {
        String demo = Launcher.help("demo");

        assertThat(demo).contains("Exits non-zero if any check fails").doesNotContain("infra/local/pagora bench");
    }

    @Test
    void help_names_every_setting_with_a_default() {
        String help = Launcher.help("help");

        for (String name : Settings.DEFAULTS.keySet()) {
            assertThat(help).as(name).containsPattern("(?<![A-Z_])" + name + "(?![A-Z_])");
        }
    }

    @Test
    void an_unknown_command_is_refused_with_the_list_of_commands() {
        Launcher launcher =
                new Launcher(new Platform(TemporaryRepository.create(), Settings.fromEnvironment(Map.of())));

        assertThatThrownBy(() -> launcher.run(java.util.List.of("deploy")))
                .isInstanceOf(Console.Failure.class)
                .hasMessageContaining("unknown command 'deploy'")
                .hasMessageContaining("demo|bench|chaos");
        assertThatThrownBy(() -> Launcher.help("deploy")).hasMessageContaining("no help for 'deploy'");
    }

    @Test
    void an_unknown_option_is_refused_before_anything_starts() {
        Launcher launcher =
                new Launcher(new Platform(TemporaryRepository.create(), Settings.fromEnvironment(Map.of())));

        assertThatThrownBy(() -> launcher.run(java.util.List.of("demo", "--kep")))
                .hasMessageContaining("--kep");
        assertThatThrownBy(() -> launcher.run(java.util.List.of("down", "now")))
                .hasMessageContaining("down takes no option");
        assertThatThrownBy(() -> launcher.run(java.util.List.of("certs", "--ispbs=123456789")))
                .hasMessageContaining("up to 8 digits");
    }
}
