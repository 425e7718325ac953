package io.pagora.local.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one command-line parser: values, flags, plain arguments, and what it refuses. */
class OptionsTest {

    @Test
    void a_value_a_flag_and_a_default() {
        Options options = new Options("bench", List.of("--rate=500", "--find-max", "--out=/tmp/x"));

        assertThat(options.integer("rate", 4000)).isEqualTo(500);
        assertThat(options.flag("find-max")).isTrue();
        assertThat(options.flag("overload")).isFalse();
        assertThat(options.path("out")).isEqualTo(Path.of("/tmp/x"));
        assertThat(options.integer("batch-size", 7)).isEqualTo(7);
        assertThat(options.decimal("factor", 1.25)).isEqualTo(1.25);
        options.rejectUnknown();
    }

    @Test
    void a_flag_handed_over_as_true_or_false_reads_as_one() {
        Options options = new Options("bench", List.of("--find-max=true", "--keep=false"));

        assertThat(options.flag("find-max")).isTrue();
        assertThat(options.flag("keep")).isFalse();
        assertThatThrownBy(() -> new Options("bench", List.of("--find-max=yes")).flag("find-max"))
                .isInstanceOf(Options.Refused.class)
                .hasMessageContaining("--find-max is a flag");
    }

    @Test
    void a_value_option_typed_as_a_bare_flag_is_refused() {
        assertThatThrownBy(() -> new Options("bench", List.of("--rate")).integer("rate", 4000))
                .hasMessage("--rate needs a value: --rate=...");
    }

    @Test
    void the_last_of_a_repeated_option_counts() {
        assertThat(new Options("bench", List.of("--ledger=a", "--ledger=b")).string("ledger", "c"))
                .isEqualTo("b");
    }

    @Test
    void an_unknown_option_is_refused_naming_the_command_and_what_it_knows() {
        Options options = new Options("bench", List.of("--rates=500", "--rate=1"));
        options.integer("rate", 4000);
        options.flag("find-max");

        assertThatThrownBy(options::rejectUnknown)
                .isInstanceOf(Options.Refused.class)
                .hasMessage("unknown bench option: --rates=500 (known: --rate=... --find-max)");
    }

    @Test
    void a_plain_argument_is_refused_unless_the_command_reads_them() {
        Options refusing = new Options("seed", List.of("--out=x", "extra"));
        refusing.string("out", "");
        assertThatThrownBy(refusing::rejectUnknown).hasMessageContaining("unknown seed option: extra");

        Options reading = new Options("chaos", List.of("poison", "--ledger=both", "all"));
        assertThat(reading.arguments()).containsExactly("poison", "all");
        assertThat(reading.string("ledger", "postgresql")).isEqualTo("both");
        reading.rejectUnknown();
    }

    @Test
    void a_command_without_options_says_so() {
        assertThatThrownBy(() -> new Options("down", List.of("now")).rejectUnknown())
                .hasMessage("down takes no option, not: now");
        assertThatThrownBy(() -> new Options("down", List.of("--force")).rejectUnknown())
                .hasMessage("down takes no option, not: --force");
        new Options("down", List.of()).rejectUnknown();
    }

    @Test
    void a_required_option_left_out_or_blank_is_refused() {
        assertThatThrownBy(() -> new Options("cpu", List.of()).required("components"))
                .hasMessage("missing option --components=...");
        assertThatThrownBy(() -> new Options("cpu", List.of("--out= ")).path("out"))
                .hasMessage("missing option --out=...");
    }

    @Test
    void a_number_that_is_not_one_is_refused_with_its_name_and_text() {
        assertThatThrownBy(() -> new Options("bench", List.of("--rate=abc")).decimal("rate", 4000))
                .isInstanceOf(Options.Refused.class)
                .hasMessage("--rate is a number, not 'abc'");
        assertThatThrownBy(() -> new Options("bench", List.of("--warmup=1.5")).integer("warmup", 60))
                .hasMessage("--warmup is a whole number, not '1.5'");
        assertThatThrownBy(() -> new Options("seed", List.of("--customer-funding=9x")).longValue("customer-funding", 1))
                .hasMessage("--customer-funding is a whole number, not '9x'");
    }
}
