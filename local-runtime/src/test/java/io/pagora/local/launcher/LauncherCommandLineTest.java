package io.pagora.local.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The options every command knows (--help, -h, --scale), and the single-flag commands' own. */
class LauncherCommandLineTest {

    @Test
    void no_command_is_the_demo_and_help_or_scale_anywhere_is_seen() {
        assertThat(Launcher.CommandLine.parse(List.of()))
                .isEqualTo(new Launcher.CommandLine("demo", false, false, List.of()));
        assertThat(Launcher.CommandLine.parse(List.of("chaos", "poison", "--scale", "--ledger=both")))
                .isEqualTo(new Launcher.CommandLine("chaos", false, true, List.of("poison", "--ledger=both")));
        assertThat(Launcher.CommandLine.parse(List.of("bench", "--rate=1", "--help"))
                        .help())
                .isTrue();
        assertThat(Launcher.CommandLine.parse(List.of("up", "-h")).help()).isTrue();
        assertThat(Launcher.CommandLine.parse(List.of("up", "--keep")).help()).isFalse();
    }

    @Test
    void scale_is_refused_where_no_platform_starts_and_demo_knows_only_keep() {
        Launcher launcher = new Launcher(new io.pagora.local.launcher.platform.Platform(
                TemporaryRepository.create(), Settings.fromEnvironment(Map.of())));

        assertThatThrownBy(() -> launcher.run(List.of("status", "--scale")))
                .hasMessageContaining("--scale is an option of demo, bench, chaos, up, not of status");
        assertThatThrownBy(() -> launcher.run(List.of("demo", "--keep", "--plain-http")))
                .hasMessage("unknown demo option: --plain-http (known: --keep)");
        assertThatThrownBy(() -> launcher.run(List.of("up", "--keep")))
                .hasMessage("unknown up option: --keep (known: --plain-http)");
        assertThatThrownBy(() -> launcher.run(List.of("verify", "--now")))
                .hasMessage("verify takes no option, not: --now");
    }
}
