package io.pagora.payments.api.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.settlement.domain.PixId;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The patterns of payment-api's OpenAPI document say exactly what the code takes, so a client generated from the
 * document sends nothing the API refuses as malformed: the end-to-end and return ids' date-times (every day of every
 * month, leap years), the free-text fields' controls, a bank name's blankness, the payment id's zeros.
 */
class OpenApiSchemaTest {

    @Test
    void theIdPatternsAdmitExactlyTheRealDateTimes() {
        Pattern endToEnd = Pattern.compile(schema("EndToEndId").get("pattern").toString());
        Pattern returnId = Pattern.compile(
                property("ReturnOrder", "returnId").get("pattern").toString());
        List<Integer> years = new ArrayList<>(List.of(0, 4, 100, 400, 1600, 1700, 1800, 1900, 2100, 2400, 9996, 9999));
        for (int year = 1996; year <= 2032; year++) {
            years.add(year);
        }
        for (int year : years) {
            for (int month = 0; month <= 13; month++) {
                for (int day = 0; day <= 32; day++) {
                    String minute = String.format("%04d%02d%02d2359", year, month, day);
                    String e2e = "E00000001" + minute + "abcDEF12345";
                    String ret = "D00000001" + minute + "abcDEF12345";
                    boolean valid = PixId.problem(e2e, PixId.Kind.END_TO_END).isEmpty();
                    assertThat(endToEnd.matcher(e2e).matches()).as(e2e).isEqualTo(valid);
                    assertThat(returnId.matcher(ret).matches())
                            .as(ret)
                            .isEqualTo(PixId.problem(ret, PixId.Kind.RETURN).isEmpty());
                }
            }
        }
        for (String time : List.of("2400", "2360", "0000", "2359")) {
            String e2e = "E0000000120261127" + time + "abcDEF12345";
            assertThat(endToEnd.matcher(e2e).matches())
                    .as(e2e)
                    .isEqualTo(PixId.problem(e2e).isEmpty());
        }
    }

    @Test
    void theFreeTextPatternsAdmitExactlyWhatTheCodeTakes() {
        Pattern description = Pattern.compile(
                property("ReturnOrder", "description").get("pattern").toString());
        Pattern paymentDescription =
                Pattern.compile(schema("PaymentDescription").get("pattern").toString());
        Pattern bankName = Pattern.compile(bankNameSchema().get("pattern").toString());
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            if (Character.isSurrogate((char) c)) {
                continue;
            }
            for (String text : List.of(String.valueOf((char) c), "a" + (char) c, (char) c + " ")) {
                boolean plain = JsonFields.isPlainText(text, PaymentRequest.DESCRIPTION_CHARS_MAX);
                assertThat(description.matcher(text).matches())
                        .as("U+%04X in %s", c, text)
                        .isEqualTo(plain);
                assertThat(paymentDescription.matcher(text).matches())
                        .as("U+%04X", c)
                        .isEqualTo(plain);
                assertThat(bankName.matcher(text).matches())
                        .as("bank name with U+%04X", c)
                        .isEqualTo(plain && !text.isBlank());
            }
        }
    }

    @Test
    void aReturnsPaymentIdIsNeverAllZeros() {
        Map<String, Object> parameter = returnsPaymentIdParameter();
        @SuppressWarnings("unchecked")
        Map<String, Object> schema = (Map<String, Object>) parameter.get("schema");
        assertThat(schema.get("not")).isEqualTo(Map.of("const", "0".repeat(32)));
    }

    private static Map<String, Object> document() {
        try (InputStream in = OpenApiSchemaTest.class.getResourceAsStream("/openapi/openapi.yaml")) {
            return new Yaml().load(in);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> schema(String name) {
        Map<String, Object> components = (Map<String, Object>) document().get("components");
        return (Map<String, Object>) ((Map<String, Object>) components.get("schemas")).get(name);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> property(String schema, String name) {
        return (Map<String, Object>) ((Map<String, Object>) schema(schema).get("properties")).get(name);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> bankNameSchema() {
        Map<String, Object> paths = (Map<String, Object>) document().get("paths");
        Map<String, Object> post = (Map<String, Object>) ((Map<String, Object>) paths.get("/banks")).get("post");
        Map<String, Object> body = (Map<String, Object>)
                ((Map<String, Object>) ((Map<String, Object>) post.get("requestBody")).get("content"))
                        .get("application/json");
        Map<String, Object> properties =
                (Map<String, Object>) ((Map<String, Object>) body.get("schema")).get("properties");
        return (Map<String, Object>) properties.get("name");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> returnsPaymentIdParameter() {
        Map<String, Object> paths = (Map<String, Object>) document().get("paths");
        Map<String, Object> post =
                (Map<String, Object>) ((Map<String, Object>) paths.get("/payments/{paymentId}/returns")).get("post");
        for (Object each : (List<Object>) post.get("parameters")) {
            Map<String, Object> parameter = (Map<String, Object>) each;
            if ("paymentId".equals(parameter.get("name"))) {
                return parameter;
            }
        }
        throw new AssertionError("no paymentId parameter");
    }
}
