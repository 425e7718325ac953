package io.pagora.payments.api.domain.directory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The five key types' formats, the tax ids' check digits, and the masks a look-up shows. */
class KeyFormatsTest {

    @ParameterizedTest
    @ValueSource(strings = {"52998224725", "12345678909", "11144477735"})
    void cpfsWithRightCheckDigitsAreCpfKeys(String cpf) {
        assertThat(TaxId.isCpf(cpf)).isTrue();
        assertThat(PixKey.of(cpf)).contains(new PixKey(KeyType.CPF, cpf));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "52998224724",
                "12345678900",
                "11111111111",
                "00000000000",
                "529.982.247-25",
                "5299822472",
                "5299822472a"
            })
    void cpfsWithWrongDigitsOrPunctuationAreNot(String text) {
        assertThat(TaxId.isCpf(text)).isFalse();
        assertThat(KeyType.CPF.normalized(text)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"11222333000181", "12ABC34501DE35", "00000000000191"})
    void cnpjsNumericAndAlphanumericWithRightCheckDigits(String cnpj) {
        assertThat(TaxId.isCnpj(cnpj)).isTrue();
        assertThat(PixKey.of(cnpj)).contains(new PixKey(KeyType.CNPJ, cnpj));
        assertThat(TaxId.isCompany(cnpj)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"11222333000182", "12abc34501de35", "00000000000000", "12ABC34501DEX5", "1122233300018"})
    void cnpjsWithWrongDigitsOrLowerCaseAreNot(String text) {
        assertThat(TaxId.isCnpj(text)).isFalse();
    }

    @ParameterizedTest
    @CsvSource({
        "+5561912345678, PHONE",
        "+12, PHONE",
        "maria.souza@example.com.br, EMAIL",
        "123e4567-e89b-42d3-a456-426614174000, EVP",
    })
    void phonesEmailsAndEvpsAreToldByTheirFormat(String key, KeyType type) {
        assertThat(PixKey.of(key)).contains(new PixKey(type, key));
    }

    @ParameterizedTest
    @CsvSource({
        "PHONE, 5561912345678",
        "PHONE, +0561912345678",
        "PHONE, +5561912345678901",
        "PHONE, +55 61 91234-5678",
        "EMAIL, maria@",
        "EMAIL, @example.com",
        "EMAIL, maria souza@example.com",
        "EVP, 123e4567-e89b-12d3-a456-426614174000",
        "EVP, 123e4567e89b42d3a456426614174000",
    })
    void malformedKeysOfEachTypeAreRefused(KeyType type, String text) {
        assertThat(type.normalized(text)).as(text).isEmpty();
    }

    @Test
    void anEmailOrEvpIsStoredInLowerCaseAndAnOverlongEmailIsRefused() {
        assertThat(PixKey.of(KeyType.EMAIL, "Maria.Souza@Example.COM"))
                .contains(new PixKey(KeyType.EMAIL, "maria.souza@example.com"));
        assertThat(PixKey.of(KeyType.EVP, "123E4567-E89B-42D3-A456-426614174000"))
                .contains(new PixKey(KeyType.EVP, "123e4567-e89b-42d3-a456-426614174000"));
        String local = "a".repeat(KeyType.EMAIL_CHARS_MAX - "@x.io".length() + 1);
        assertThat(KeyType.EMAIL.normalized(local + "@x.io")).isEmpty();
        assertThat(KeyType.EMAIL.normalized(local.substring(1) + "@x.io")).isPresent();
    }

    @Test
    void aTextOfNoTypeIsNoKey() {
        assertThat(PixKey.of("hello")).isEmpty();
        assertThat(PixKey.of("")).isEmpty();
        assertThat(PixKey.of((String) null)).isEmpty();
        assertThat(PixKey.of("12345678901")).as("11 digits, wrong check digits").isEmpty();
    }

    @Test
    void aPersonsNameAndCpfAreMaskedACompanysAreNot() {
        assertThat(HolderName.masked("Maria da Silva Souza", "52998224725")).isEqualTo("Maria S. S.");
        assertThat(HolderName.masked("João", "52998224725")).isEqualTo("João");
        assertThat(HolderName.masked("Padaria Pão Quente Ltda", "11222333000181"))
                .isEqualTo("Padaria Pão Quente Ltda");
        assertThat(TaxId.masked("52998224725")).isEqualTo("***.982.247-**");
        assertThat(TaxId.masked("11222333000181")).isEqualTo("11222333000181");
    }
}
