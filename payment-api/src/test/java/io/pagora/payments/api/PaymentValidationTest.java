package io.pagora.payments.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.payments.api.testsupport.RequestedEvents;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.testing.Http;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.test.context.TestPropertySource;

/**
 * Proves that every bad request to {@code POST /payments} is refused with its own RFC 9457 problem
 * type (application/problem+json, the right 400/413/415/422 status, the offending field named), never
 * a 500 nor a stack trace, and that nothing reaches Kafka for any of them. Also: framework errors
 * (unknown path, wrong method) use the same problem format.
 */
@TestPropertySource(properties = "pagora.payments.amount-max-centavos=5000000")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PaymentValidationTest extends PaymentApiIntegrationTest {

    Http http;
    RequestedEvents events;
    Accounts accounts;

    /** Accounts the cases refer to. */
    record Accounts(String payer, String payee) {}

    /** One bad request: what to send. */
    record Case(String body, String contentType, String... headers) {
        static Case json(String body) {
            return new Case(
                    body,
                    "application/json",
                    "Idempotency-Key",
                    UUID.randomUUID().toString());
        }
    }

    @BeforeAll
    void setUp() {
        events = new RequestedEvents(kafkaBootstrapServers());
        Participants participants = new Participants(port);
        http = participants.bank(1); // the payer's bank
        participants.registerBank(1, "Banco Um");
        participants.registerBank(2, "Banco Dois");
        accounts = new Accounts(participants.openAccount(1), participants.openAccount(2));
    }

    @AfterAll
    void tearDown() {
        events.close();
    }

    static String payment(String payer, String payee, String amount) {
        return "{\"payerAccountId\":\"" + payer + "\",\"payeeAccountId\":\"" + payee + "\",\"amountCentavos\":" + amount
                + "}";
    }

    static String withField(Accounts a, String field, String jsonValue) {
        return "{\"payerAccountId\":\"" + a.payer() + "\",\"payeeAccountId\":\"" + a.payee()
                + "\",\"amountCentavos\":100,\"" + field + "\":" + jsonValue + "}";
    }

    static Arguments bad(String name, Function<Accounts, Case> request, int status, String type, String field) {
        return Arguments.of(name, request, status, type, field);
    }

    Stream<Arguments> badRequests() {
        String reserve = ChartOfAccounts.reserve(new BankId(1)).toString();
        String centralBank = ChartOfAccounts.centralBank().toString();
        String unopened = ChartOfAccounts.customer(new BankId(2), 999_999).toString();
        String unregisteredBank = ChartOfAccounts.customer(new BankId(77), 1).toString();
        return Stream.of(
                bad("malformed JSON", a -> Case.json("{\"payerAccountId\": "), 400, "malformed-json", null),
                bad("not JSON at all", a -> Case.json("pay me"), 400, "malformed-json", null),
                bad("JSON array instead of object", a -> Case.json("[1,2]"), 400, "malformed-json", null),
                bad("empty body", a -> Case.json(""), 400, "malformed-json", null),
                bad(
                        "duplicate field",
                        a -> Case.json("{\"amountCentavos\":1,\"amountCentavos\":2}"),
                        400,
                        "malformed-json",
                        null),
                bad(
                        "trailing garbage",
                        a -> Case.json(payment(a.payer(), a.payee(), "100") + " {}"),
                        400,
                        "malformed-json",
                        null),
                bad(
                        "missing payer",
                        a -> Case.json("{\"payeeAccountId\":\"" + a.payee() + "\",\"amountCentavos\":1}"),
                        400,
                        "missing-field",
                        "payerAccountId"),
                bad(
                        "missing payee",
                        a -> Case.json("{\"payerAccountId\":\"" + a.payer() + "\",\"amountCentavos\":1}"),
                        400,
                        "missing-field",
                        "payeeAccountId"),
                bad(
                        "missing amount",
                        a -> Case.json(
                                "{\"payerAccountId\":\"" + a.payer() + "\",\"payeeAccountId\":\"" + a.payee() + "\"}"),
                        400,
                        "missing-field",
                        "amountCentavos"),
                bad(
                        "null amount",
                        a -> Case.json(payment(a.payer(), a.payee(), "null")),
                        400,
                        "missing-field",
                        "amountCentavos"),
                bad(
                        "amount as string",
                        a -> Case.json(payment(a.payer(), a.payee(), "\"100\"")),
                        400,
                        "invalid-field",
                        "amountCentavos"),
                bad(
                        "amount as boolean",
                        a -> Case.json(payment(a.payer(), a.payee(), "true")),
                        400,
                        "invalid-field",
                        "amountCentavos"),
                bad(
                        "payer as number",
                        a -> Case.json("{\"payerAccountId\":42,\"payeeAccountId\":\"" + a.payee()
                                + "\",\"amountCentavos\":1}"),
                        400,
                        "invalid-account-id",
                        "payerAccountId"),
                bad(
                        "payer not hex",
                        a -> Case.json(payment("zz" + a.payer().substring(2), a.payee(), "1")),
                        400,
                        "invalid-account-id",
                        "payerAccountId"),
                bad(
                        "payee too short",
                        a -> Case.json(payment(a.payer(), a.payee().substring(1), "1")),
                        400,
                        "invalid-account-id",
                        "payeeAccountId"),
                bad(
                        "amount zero",
                        a -> Case.json(payment(a.payer(), a.payee(), "0")),
                        422,
                        "invalid-amount",
                        "amountCentavos"),
                bad(
                        "amount negative",
                        a -> Case.json(payment(a.payer(), a.payee(), "-5")),
                        422,
                        "invalid-amount",
                        "amountCentavos"),
                bad(
                        "amount fractional",
                        a -> Case.json(payment(a.payer(), a.payee(), "10.5")),
                        422,
                        "invalid-amount",
                        "amountCentavos"),
                bad(
                        "amount in exponent form",
                        a -> Case.json(payment(a.payer(), a.payee(), "1e3")),
                        422,
                        "invalid-amount",
                        "amountCentavos"),
                bad(
                        "amount above max",
                        a -> Case.json(payment(a.payer(), a.payee(), "5000001")),
                        422,
                        "amount-above-limit",
                        "amountCentavos"),
                bad(
                        "amount beyond 64 bits",
                        a -> Case.json(payment(a.payer(), a.payee(), "123456789012345678901234567890")),
                        422,
                        "amount-above-limit",
                        "amountCentavos"),
                bad(
                        "unsupported currency",
                        a -> Case.json(withField(a, "currency", "\"USD\"")),
                        422,
                        "unsupported-currency",
                        "currency"),
                bad(
                        "description too long",
                        a -> Case.json(withField(a, "description", "\"" + "x".repeat(141) + "\"")),
                        400,
                        "invalid-field",
                        "description"),
                bad(
                        "description with control character",
                        a -> Case.json(withField(a, "description", "\"a\\u0000b\"")),
                        400,
                        "invalid-field",
                        "description"),
                bad(
                        "endToEndId too long",
                        a -> Case.json(withField(a, "endToEndId", "\"" + "E".repeat(36) + "\"")),
                        400,
                        "invalid-end-to-end-id",
                        "endToEndId"),
                bad(
                        "endToEndId free-form",
                        a -> Case.json(withField(a, "endToEndId", "\"order-42\"")),
                        400,
                        "invalid-end-to-end-id",
                        "endToEndId"),
                bad(
                        "endToEndId with 30 February",
                        a -> Case.json(withField(a, "endToEndId", "\"E0000001120260230120012345678901\"")),
                        400,
                        "invalid-end-to-end-id",
                        "endToEndId"),
                bad(
                        "a return id as endToEndId",
                        a -> Case.json(withField(a, "endToEndId", "\"D0000001120260101120012345678901\"")),
                        400,
                        "invalid-end-to-end-id",
                        "endToEndId"),
                bad(
                        "endToEndId as number",
                        a -> Case.json(withField(a, "endToEndId", "7")),
                        400,
                        "invalid-field",
                        "endToEndId"),
                bad(
                        "payer equals payee",
                        a -> Case.json(payment(a.payer(), a.payer(), "100")),
                        422,
                        "same-payer-and-payee",
                        "payeeAccountId"),
                bad(
                        "unknown payee account",
                        a -> Case.json(payment(a.payer(), unopened, "100")),
                        422,
                        "unknown-account",
                        "payeeAccountId"),
                bad(
                        "payer at an unregistered bank",
                        a -> Case.json(payment(unregisteredBank, a.payee(), "100")),
                        422,
                        "unknown-account",
                        "payerAccountId"),
                bad(
                        "bank reserve as payee",
                        a -> Case.json(payment(a.payer(), reserve, "100")),
                        422,
                        "not-a-customer-account",
                        "payeeAccountId"),
                bad(
                        "central bank as payer",
                        a -> Case.json(payment(centralBank, a.payee(), "100")),
                        422,
                        "not-a-customer-account",
                        "payerAccountId"),
                bad(
                        "missing Idempotency-Key",
                        a -> new Case(payment(a.payer(), a.payee(), "100"), "application/json"),
                        400,
                        "missing-idempotency-key",
                        "Idempotency-Key"),
                bad(
                        "Idempotency-Key too long",
                        a -> new Case(
                                payment(a.payer(), a.payee(), "100"),
                                "application/json",
                                "Idempotency-Key",
                                "k".repeat(129)),
                        400,
                        "invalid-idempotency-key",
                        "Idempotency-Key"),
                bad(
                        "Idempotency-Key with a space",
                        a -> new Case(
                                payment(a.payer(), a.payee(), "100"),
                                "application/json",
                                "Idempotency-Key",
                                "two words"),
                        400,
                        "invalid-idempotency-key",
                        "Idempotency-Key"),
                bad(
                        "oversized body",
                        a -> Case.json(withField(a, "padding", "\"" + "p".repeat(20 * 1024) + "\"")),
                        413,
                        "payload-too-large",
                        null),
                bad(
                        "text/plain body",
                        a -> new Case(payment(a.payer(), a.payee(), "100"), "text/plain", "Idempotency-Key", "k1"),
                        415,
                        "unsupported-media-type",
                        null),
                bad(
                        "form body",
                        a -> new Case("a=b", "application/x-www-form-urlencoded", "Idempotency-Key", "k2"),
                        415,
                        "unsupported-media-type",
                        null),
                bad(
                        "no Content-Type",
                        a -> new Case(payment(a.payer(), a.payee(), "100"), null, "Idempotency-Key", "k3"),
                        415,
                        "unsupported-media-type",
                        null),
                bad(
                        "Latin-1 charset",
                        a -> new Case(
                                payment(a.payer(), a.payee(), "100"),
                                "application/json; charset=ISO-8859-1",
                                "Idempotency-Key",
                                "k4"),
                        415,
                        "unsupported-media-type",
                        null));
    }

    @ParameterizedTest(name = "{0} → {2} {3}")
    @MethodSource("badRequests")
    void everyBadRequestHasItsOwnProblemTypeAndPublishesNothing(
            String name, Function<Accounts, Case> request, int status, String type, String field) {
        Case bad = request.apply(accounts);
        Map<TopicPartition, Long> mark = events.mark();

        Http.Response response = http.send(
                "/payments", "POST", HttpRequest.BodyPublishers.ofString(bad.body()), bad.contentType(), bad.headers());

        assertProblem(response, status, type);
        if (field != null) {
            assertThat(response.json().path("field").asString()).isEqualTo(field);
        }
        assertThat(events.since(mark)).as("nothing published for " + name).isEmpty();
    }

    @Test
    void chunkedBodyWithoutContentLengthIsCutOffAtTheLimit() {
        byte[] huge = ("{\"padding\":\"" + "p".repeat(64 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);
        Http.Response response = http.send(
                "/payments",
                "POST",
                HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(huge)),
                "application/json",
                "Idempotency-Key",
                "chunked");
        assertProblem(response, 413, "payload-too-large");
    }

    @Test
    void frameworkErrorsUseTheSameProblemFormat() {
        assertProblem(http.get("/no-such-endpoint"), 404, "not-found");
        assertProblem(http.get("/payments"), 405, "method-not-allowed");
        assertProblem(http.get("/accounts/not-an-id/balance"), 400, "invalid-account-id");
        assertProblem(
                http.get("/accounts/" + ChartOfAccounts.customer(new BankId(1), 424242) + "/balance"),
                404,
                "account-not-found");
    }

    static void assertProblem(Http.Response response, int status, String type) {
        assertThat(response.status()).as("%s", response).isEqualTo(status);
        assertThat(response.contentType()).as("%s", response).startsWith("application/problem+json");
        assertThat(response.problemType()).as("%s", response).isEqualTo(type);
        assertThat(response.json().path("status").asInt()).isEqualTo(status);
        assertThat(response.json().path("title").asString()).isNotBlank();
        assertThat(response.json().path("detail").asString()).isNotBlank();
        assertThat(response.body())
                .doesNotContain("Exception")
                .doesNotContain("\tat ")
                .doesNotContain("trace");
    }
}
