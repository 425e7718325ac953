package io.pagora.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Free text that crosses a boundary is cleaned and bounded; clean text passes untouched. */
class TextsTest {

    @Test
    void controlCharactersAndUnpairedSurrogatesBecomeSpaces() {
        assertThat(Texts.clean("conta\u0000 encerrada\n\u007f\u0085", 100)).isEqualTo("conta  encerrada   ");
        assertThat(Texts.clean("a\uD800b\uDC00c", 100)).isEqualTo("a b c");
        assertThat(Texts.clean("pão \uD83D\uDE00", 100)).as("a pair is kept").isEqualTo("pão \uD83D\uDE00");
    }

    @Test
    void longTextIsCutWithAnEllipsis() {
        assertThat(Texts.clean("x".repeat(1_000), 10))
                .isEqualTo("x".repeat(9) + "…")
                .hasSize(10);
        assertThat(Texts.clean("123456789\uD83D\uDE00", 10))
                .as("never half a pair")
                .isEqualTo("12345678…");
        assertThat(Texts.clean("exactly10!", 10)).isEqualTo("exactly10!");
        assertThat(Texts.clean(null, 10)).isNull();
    }
}
