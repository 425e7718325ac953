package io.pagora.settlement.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** An ISPB is written as 8 digits everywhere a bank is named (certificates' CN, principal names, account ids). */
class BankIdTest {

    @Test
    void isWrittenAsEightDigitsZeroPadded() {
        assertThat(new BankId(0)).hasToString("00000000");
        assertThat(new BankId(1)).hasToString("00000001");
        assertThat(new BankId(10001111)).hasToString("10001111");
        assertThat(new BankId(BankId.ISPB_MAX)).hasToString("99999999");
        assertThat(new BankId(360305)).hasToString(String.format("%08d", 360305));
    }

    @Test
    void anIspbOfMoreThanEightDigitsOrNegativeIsNoBank() {
        assertThatThrownBy(() -> new BankId(BankId.ISPB_MAX + 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BankId(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
