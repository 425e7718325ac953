package io.pagora.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Ids cross every boundary as 32 hex digits: read back exactly what was written, refuse everything else. */
class Id128Test {

    @Test
    void textRoundTripsWithLeadingZerosAndTheTopBitSet() {
        for (Id128 id : new Id128[] {
            Id128.ZERO, Id128.MAX, new Id128(0x0400000001531580L, 1), new Id128(Long.MIN_VALUE, 0x00ff00ff00ff00ffL)
        }) {
            assertThat(id.toString()).hasSize(32).matches("[0-9a-f]{32}");
            assertThat(Id128.parse(id.toString())).isEqualTo(id);
        }
        assertThat(new Id128(1, 2).toString()).isEqualTo("0000000000000001" + "0000000000000002");
    }

    @Test
    void upperCaseAndAUuidsDashesAreRead() {
        UUID uuid = UUID.fromString("01a21a0c-061d-aa90-9fd6-699a6b441d00");
        assertThat(Id128.parse(uuid.toString())).isEqualTo(Id128.fromUuid(uuid));
        assertThat(Id128.parse("01A21A0C061DAA909FD6699A6B441D00")).isEqualTo(Id128.fromUuid(uuid));
    }

    @Test
    void anythingButThirtyTwoAsciiHexDigitsIsRefused() {
        String digits = "01a21a0c061daa909fd6699a6b441d00";
        for (String bad : new String[] {
            "",
            digits.substring(1),
            digits + "0",
            "g" + digits.substring(1),
            " " + digits.substring(1),
            "\uFF10" + digits.substring(1),
            "+" + digits.substring(1),
            "-".repeat(100) + digits
        }) {
            assertThatThrownBy(() -> Id128.parse(bad))
                    .as("%s", bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("not a 128-bit hex id");
        }
    }

    @Test
    void theStrictFormIsLowerOrUpperHexWithoutDashes() {
        assertThat(Id128.isHexDigits32("01a21a0c061daa909fd6699a6b441d00")).isTrue();
        assertThat(Id128.isHexDigits32("01A21A0C061DAA909FD6699A6B441D00")).isTrue();
        assertThat(Id128.isHexDigits32("01a21a0c-061d-aa90-9fd6-699a6b441d00")).isFalse();
        assertThat(Id128.isHexDigits32("01a21a0c061daa909fd6699a6b441d0")).isFalse();
        assertThat(Id128.isHexDigits32("\uFF1001a21a0c061daa909fd6699a6b441d")).isFalse();
        assertThat(Id128.isHexDigits32(null)).isFalse();
    }
}
