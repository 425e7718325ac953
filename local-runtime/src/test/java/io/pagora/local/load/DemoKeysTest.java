package io.pagora.local.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import org.junit.jupiter.api.Test;

/**
 * The seeded customers' keys as every sender computes them: this class and k6/lib/keys.js make the same key, CPF and
 * BR Code from an account id (the expected values below are what keys.js answers for them), and the BR Code is BCB's
 * layout to the byte: its manual's worked example comes out with its printed CRC.
 */
class DemoKeysTest {

    static final Id128 BANK2_CUSTOMER_1001 = Id128.parse("040000000000000200000000000003e9");
    static final Id128 BANK1_CUSTOMER_1 = Id128.parse("04000000000000010000000000000001");

    @Test
    void keysAndCpfsAreWhatK6Computes() {
        assertThat(DemoKeys.keyOf(BANK2_CUSTOMER_1001)).isEqualTo("c040000000000000200000000000003e9@pagora.example");
        assertThat(DemoKeys.cpfOf(BANK2_CUSTOMER_1001)).isEqualTo("10000100153");
        assertThat(DemoKeys.cpfOf(BANK1_CUSTOMER_1)).isEqualTo("10000000108");
        assertThat(DemoKeys.brCodeOf(DemoKeys.keyOf(BANK2_CUSTOMER_1001), 2_500L, "Cliente Pagora", "Sao Paulo"))
                .isEqualTo("00020126700014br.gov.bcb.pix0148c040000000000000200000000000003e9@pagora.example"
                        + "520400005303986540525.005802BR5914Cliente Pagora6009Sao Paulo62070503***63043CF2");
    }

    @Test
    void everyCustomerOfManyBanksGetsAValidCpfAndAKeyOfItsOwn() {
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (int bank = 1; bank <= 20; bank++) {
            for (long number = 1; number <= 2_000; number++) {
                Id128 account = ChartOfAccounts.customer(new BankId(10_000_000 + bank * 1_111), number);
                String cpf = DemoKeys.cpfOf(account);
                assertThat(cpf).hasSize(11).matches("[0-9]{11}");
                assertThat(cpf.chars().distinct().count()).isGreaterThan(1);
                assertThat(checkDigitsHold(cpf)).as(cpf).isTrue();
                assertThat(keys.add(DemoKeys.keyOf(account))).isTrue();
            }
        }
    }

    @Test
    void theBrCodeManualsExampleComesOutWithItsCrc() {
        assertThat(DemoKeys.brCodeOf("123e4567-e12b-12d1-a456-426655440000", null, "Fulano de Tal", "BRASILIA"))
                .isEqualTo("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000"
                        + "5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D");
    }

    private static boolean checkDigitsHold(String cpf) {
        for (int length = 9; length <= 10; length++) {
            int sum = 0;
            for (int i = 0; i < length; i++) {
                sum += (cpf.charAt(i) - '0') * (length + 1 - i);
            }
            int rest = sum % 11;
            if (cpf.charAt(length) - '0' != (rest < 2 ? 0 : 11 - rest)) {
                return false;
            }
        }
        return true;
    }
}
