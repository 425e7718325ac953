package io.pagora.local.launcher.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The bench command's options record: its defaults, its values, and what it refuses before a platform starts. */
class BenchRunOptionsTest {

    @Test
    void nothing_typed_leaves_the_bench_its_own_defaults_on_the_platforms_ledger() {
        BenchRunOptions options = BenchRunOptions.parse(List.of(), "tigerbeetle");

        assertThat(options)
                .isEqualTo(new BenchRunOptions(
                        "tigerbeetle", null, null, null, null, null, null, false, null, false, null, null, null, null));
        assertThat(options.benchArguments()).isEmpty();
    }

    @Test
    void every_option_is_read_typed_and_handed_over_in_the_bench_tools_names() {
        BenchRunOptions options = BenchRunOptions.parse(
                List.of(
                        "--ledger=both",
                        "--mode=single",
                        "--rate=1500.5",
                        "--batch-size=100",
                        "--warmup=10",
                        "--window=20",
                        "--drain-seconds=30",
                        "--find-max",
                        "--find-max-factor=1.5",
                        "--second-bank-rate=50",
                        "--key-share=0.25"),
                "postgresql");

        assertThat(options.ledger()).isEqualTo("both");
        assertThat(options.ratePerSecond()).isEqualTo(1500.5);
        assertThat(options.warmupSeconds()).isEqualTo(10);
        assertThat(options.windowSeconds()).isEqualTo(20);
        assertThat(options.overload())
                .as("a second bank's rate is the overload run's")
                .isTrue();
        assertThat(options.benchArguments())
                .containsExactly(
                        "--mode=single",
                        "--rate=1500.5",
                        "--batch-size=100",
                        "--warmup-seconds=10",
                        "--window-seconds=20",
                        "--drain-seconds=30",
                        "--find-max=true",
                        "--find-max-factor=1.5",
                        "--overload-factor=2",
                        "--second-bank-rate=50",
                        "--key-share=0.25");
        assertThat(BenchRunOptions.parse(List.of("--mode=lookup", "--rate=5000", "--end-users=1000"), "postgresql")
                        .benchArguments())
                .containsExactly("--mode=lookup", "--rate=5000", "--end-users=1000");
        assertThat(BenchRun.plan(List.of("--mode=lookup"), "postgresql").lookups())
                .isTrue();
        assertThatThrownBy(() -> BenchRunOptions.parse(List.of("--mode=lookups"), "postgresql"))
                .hasMessageContaining("--mode is bulk, single or lookup");
        assertThatThrownBy(() -> BenchRunOptions.parse(List.of("--key-share=1.5"), "postgresql"))
                .hasMessageContaining("--key-share is a share in 0..1");
    }

    @Test
    void a_value_that_is_no_number_is_refused_naming_the_option() {
        assertThatThrownBy(() -> BenchRunOptions.parse(List.of("--rate=abc"), "postgresql"))
                .hasMessage("--rate is a number, not 'abc'");
        assertThatThrownBy(() -> BenchRunOptions.parse(List.of("--warmup=ten"), "postgresql"))
                .hasMessage("--warmup is a whole number, not 'ten'");
    }

    @Test
    void an_unknown_option_is_refused_with_the_options_the_bench_knows() {
        assertThatThrownBy(() -> BenchRunOptions.parse(List.of("--rates=500"), "postgresql"))
                .hasMessageStartingWith("unknown bench option: --rates=500 (known: --ledger=... --mode=... --rate=...")
                .hasMessageContaining("--find-max --find-max-factor=...")
                .hasMessageContaining("--overload");
        assertThatThrownBy(() -> BenchRunOptions.parse(List.of("500"), "postgresql"))
                .hasMessageContaining("unknown bench option: 500");
    }

    @Test
    void the_documented_bench_command_lines_still_read_as_before() {
        assertThat(BenchRunOptions.parse(
                                List.of("--find-max", "--rate=5000", "--warmup=30", "--window=60"), "postgresql")
                        .benchArguments())
                .containsExactly("--rate=5000", "--warmup-seconds=30", "--window-seconds=60", "--find-max=true");
        assertThat(BenchRunOptions.parse(
                                List.of(
                                        "--ledger=tigerbeetle",
                                        "--mode=single",
                                        "--rate=2000",
                                        "--warmup=60",
                                        "--window=120"),
                                "postgresql")
                        .benchArguments())
                .containsExactly("--mode=single", "--rate=2000", "--warmup-seconds=60", "--window-seconds=120");
        assertThat(BenchRunOptions.parse(
                                List.of("--ledger=both", "--rate=4000", "--warmup=60", "--window=120"), "postgresql")
                        .ledger())
                .isEqualTo("both");
        assertThat(BenchRunOptions.parse(List.of("--overload"), "postgresql").benchArguments())
                .containsExactly("--overload-factor=2");
    }
}
