package io.pagora.payments.api.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Typed access to one JSON object's fields: null is absent, and each wrong type is a problem naming its field. */
class JsonFieldsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void nullIsAbsent() {
        JsonFields fields = fields("{\"a\":null}");
        assertThat(fields.node("a")).isNull();
        assertThat(fields.optionalString("a")).isNull();
        assertThat(fields.optionalLong("a", 0, 1)).isNull();
        Refusal missing = refusalOf("{\"a\":null}", f -> f.requiredString("a"));
        assertThat(missing.type()).isEqualTo(RefusalReason.MISSING_FIELD);
        assertThat(missing.field()).isEqualTo("a");
        assertThat(missing.detail()).isEqualTo("a is required");
    }

    @Test
    void aStringIsAJsonString() {
        assertThat(fields("{\"a\":\"text\"}").requiredString("a")).isEqualTo("text");
        Refusal number = refusalOf("{\"a\":1}", f -> f.optionalString("a"));
        assertThat(number.type()).isEqualTo(RefusalReason.INVALID_FIELD);
        assertThat(number.detail()).isEqualTo("a must be a string, got a number");
    }

    @Test
    void anAmountIsAJsonIntegerAndItsMistakesAreTold() {
        assertThat(fields("{\"a\":9223372036854775807}").amountCentavos("a")).isEqualTo(Long.MAX_VALUE);
        assertThat(refusalOf("{}", f -> f.amountCentavos("a")).type()).isEqualTo(RefusalReason.MISSING_FIELD);
        assertThat(refusalOf("{\"a\":\"1\"}", f -> f.amountCentavos("a")).type())
                .isEqualTo(RefusalReason.INVALID_FIELD);
        assertThat(refusalOf("{\"a\":1.0}", f -> f.amountCentavos("a")).type()).isEqualTo(RefusalReason.INVALID_AMOUNT);
        assertThat(refusalOf("{\"a\":9223372036854775808}", f -> f.amountCentavos("a"))
                        .type())
                .as("one more than a long holds")
                .isEqualTo(RefusalReason.AMOUNT_ABOVE_LIMIT);
        assertThat(refusalOf("{\"a\":-9223372036854775809}", f -> f.amountCentavos("a"))
                        .type())
                .isEqualTo(RefusalReason.INVALID_AMOUNT);
    }

    @Test
    void aBoundedIntegerIncludesItsBoundsAndNothingMore() {
        assertThat(fields("{\"a\":1}").requiredLong("a", 1, 5)).isEqualTo(1);
        assertThat(fields("{\"a\":5}").requiredLong("a", 1, 5)).isEqualTo(5);
        assertThat(refusalOf("{\"a\":0}", f -> f.requiredLong("a", 1, 5)).detail())
                .isEqualTo("a must be an integer from 1 to 5, got 0");
        assertThat(refusalOf("{\"a\":6}", f -> f.requiredLong("a", 1, 5)).type())
                .isEqualTo(RefusalReason.INVALID_FIELD);
        assertThat(refusalOf("{\"a\":2.5}", f -> f.requiredLong("a", 1, 5)).type())
                .isEqualTo(RefusalReason.INVALID_FIELD);
        assertThat(refusalOf("{}", f -> f.requiredLong("a", 1, 5)).type()).isEqualTo(RefusalReason.MISSING_FIELD);
    }

    @Test
    void anAccountIdIs32HexDigits() {
        String hex = "0123456789abcdef0123456789ABCDEF";
        assertThat(fields("{\"a\":\"" + hex + "\"}").accountId("a")).isEqualTo(Id128.parse(hex));
        assertThat(refusalOf("{\"a\":12}", f -> f.accountId("a")).type()).isEqualTo(RefusalReason.INVALID_ACCOUNT_ID);
        Refusal short1 = refusalOf("{\"a\":\"" + hex.substring(1) + "\"}", f -> f.accountId("a"));
        assertThat(short1.type()).isEqualTo(RefusalReason.INVALID_ACCOUNT_ID);
        assertThat(short1.field()).isEqualTo("a");
    }

    @Test
    void typesAreNamedForPeople() {
        assertThat(JsonFields.typeOf(JSON.readTree("\"x\""))).isEqualTo("a string");
        assertThat(JsonFields.typeOf(JSON.readTree("1"))).isEqualTo("a number");
        assertThat(JsonFields.typeOf(JSON.readTree("true"))).isEqualTo("a boolean");
        assertThat(JsonFields.typeOf(JSON.readTree("[]"))).isEqualTo("an array");
        assertThat(JsonFields.typeOf(JSON.readTree("{}"))).isEqualTo("an object");
        assertThat(JsonFields.typeOf(JSON.readTree("null"))).isEqualTo("null");
    }

    @Test
    void textIsAbbreviatedPast40Characters() {
        String forty = "y".repeat(40);
        assertThat(JsonFields.abbreviate(forty)).isEqualTo(forty);
        assertThat(JsonFields.abbreviate(forty + "z")).isEqualTo(forty + "…");
    }

    @Test
    void plainTextCountsCodePointsAndRefusesControlCharacters() {
        assertThat(JsonFields.isPlainText("😀😀", 2))
                .as("two code points, four chars")
                .isTrue();
        assertThat(JsonFields.isPlainText("abc", 2)).isFalse();
        assertThat(JsonFields.isPlainText("a\tb", 10)).isFalse();
        assertThat(JsonFields.isVisibleAscii("a-b", 3)).isTrue();
        assertThat(JsonFields.isVisibleAscii("", 3)).isFalse();
        assertThat(JsonFields.isVisibleAscii("a b", 3)).isFalse();
        assertThat(JsonFields.isVisibleAscii("abcd", 3)).isFalse();
    }

    private static JsonFields fields(String json) {
        return new JsonFields(JSON.readTree(json));
    }

    private static Refusal refusalOf(String json, Function<JsonFields, Object> read) {
        try {
            read.apply(fields(json));
        } catch (RefusalException e) {
            return e.problem();
        }
        throw new AssertionError("expected a refusal");
    }
}
