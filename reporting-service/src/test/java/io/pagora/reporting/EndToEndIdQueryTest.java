package io.pagora.reporting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.reporting.testsupport.EventPublisher;
import io.pagora.reporting.testsupport.Payments;
import io.pagora.reporting.testsupport.Payments.Payment;
import io.pagora.reporting.testsupport.ReportingIntegrationTest;
import io.pagora.settlement.domain.access.AccessRefusal;
import io.pagora.testing.Http;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Proves a payment is found by its PIX EndToEndId, {@code GET /payments/end-to-end/{endToEndId}}, on the real service: answered to the payer's bank (00000031) and the
 * payee's (00000032) exactly as {@code GET /payments/{paymentId}} answers it; to a third bank (00000033) and the
 * operator exactly as an id nobody used (404 unknown-payment, the body but for the id; the refusal counted once),
 * so an id cannot be probed for another bank's payment; a malformed id is a 400 invalid-end-to-end-id. The read model holds payment P from bank 31
 * to bank 32, SETTLED, and a later payment between the same banks whose request carried P's id again: P, the oldest,
 * is the one found.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EndToEndIdQueryTest extends ReportingIntegrationTest {

    private static final int PAYER_BANK = 31;
    private static final int PAYEE_BANK = 32;
    private static final int THIRD_BANK = 33;
    private static final String METER = "pagora.access.refusals";
    private static final String BY_PATH = "/payments/end-to-end/";

    @Autowired
    MeterRegistry meters;

    private final Payment payment =
            Payments.between(Payments.customer(PAYER_BANK), Payments.customer(PAYEE_BANK), 5_678);
    private final String endToEndId = Payments.endToEndId(PAYER_BANK, payment.acceptedAt());
    private final Payment sameIdLater =
            Payments.between(Payments.customer(PAYER_BANK), Payments.customer(PAYEE_BANK), 9);

    @BeforeAll
    void projectTwoPaymentsWithOneEndToEndId() {
        assertThat(sameIdLater.paymentId()).as("ids are time-ordered").isGreaterThan(payment.paymentId());
        try (EventPublisher publisher = new EventPublisher(bootstrapServers)) {
            // The later payment first: the oldest must win by its id, not by which row was written first.
            publisher.publish(sameIdLater.requested(endToEndId), sameIdLater.settled());
            publisher.publish(payment.requested(endToEndId), payment.settled());
        }
        for (Payment projected : List.of(sameIdLater, payment)) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Http.Response response = bankOf(projected.payer()).get("/payments/" + projected.paymentId());
                assertThat(response.status()).as(response.body()).isEqualTo(200);
                assertThat(response.json().get("status").asString()).isEqualTo("SETTLED");
                assertThat(response.json().get("endToEndId").asString()).isEqualTo(endToEndId);
            });
        }
    }

    @Test
    void thePayersAndThePayeesBanksFindTheOldestPaymentAsByItsPaymentId() {
        for (Http party : List.of(bank(PAYER_BANK), bank(PAYEE_BANK))) {
            JsonNode byPaymentId = ok(party, "/payments/" + payment.paymentId());
            JsonNode byPath = ok(party, BY_PATH + endToEndId);
            assertThat(byPath.get("paymentId").asString())
                    .as("the oldest payment with the id")
                    .isEqualTo(payment.paymentId());
            assertThat(byPath).isEqualTo(byPaymentId);
        }
    }

    @Test
    void withoutEndToEndIdTheListingIsAnsweredAsBefore() {
        JsonNode listing = ok(bank(PAYER_BANK), "/payments");
        assertThat(listing.get("limit").asInt()).isEqualTo(20);
        List<String> listed = new ArrayList<>();
        listing.get("payments").forEach(item -> listed.add(item.get("paymentId").asString()));
        assertThat(listed).containsExactly(sameIdLater.paymentId(), payment.paymentId());
    }

    @Test
    void anotherBankAndTheOperatorAreAnsweredAsForAnIdNobodyUsed() {
        String unused = Payments.endToEndId(PAYER_BANK, Instant.now());
        for (Http stranger : List.of(bank(THIRD_BANK), operator())) {
            Http.Response unknown = notFound(stranger, BY_PATH + unused, 0);
            Http.Response refused = notFound(stranger, BY_PATH + endToEndId, 1);
            assertThat(refused.body())
                    .as("refused reads exactly as unknown, but for the id asked")
                    .isEqualTo(unknown.body().replace(unused, endToEndId));
            assertThat(refused.contentType()).isEqualTo(unknown.contentType());
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "E0000003120320304101", // short
                "E00000031203203041015abcDEF1234", // 31 characters
                "E00000031203203041015abcDEF123456", // 33 characters
                "e00000031203203041015abcDEF12345", // lowercase e
                "X00000031203203041015abcDEF12345",
                "E0000003A203203041015abcDEF12345", // a letter in the ISPB
                "E00000031203202301015abcDEF12345", // 30 February
                "E00000031203213041015abcDEF12345", // month 13
                "E00000031203203042415abcDEF12345", // hour 24
                "E00000031203203041060abcDEF12345", // minute 60
                "E00000031203203041015abcDEF1234-", // not a letter or digit
                "E00000031203203041015abcDEF1234%C3%A9", // é: 32 characters, not ASCII
                "E00000031203203041015abcDEF1234%D9%A3"
            }) // an Arabic-Indic digit
    void aMalformedIdIsAnInvalidEndToEndIdProblem(String malformed) {
        expectProblem(bank(PAYER_BANK), BY_PATH + malformed, "invalid-end-to-end-id");
    }

    private static JsonNode ok(Http caller, String path) {
        Http.Response response = caller.get(path);
        assertThat(response.status()).as("GET %s: %s", path, response).isEqualTo(200);
        assertThat(response.contentType()).startsWith("application/json");
        return response.json();
    }

    /** A 404 unknown-payment, with {@code refusalsCounted} more foreign-payment refusals than before it. */
    private Http.Response notFound(Http caller, String path, int refusalsCounted) {
        double before = foreignPaymentRefusals();
        Http.Response response = caller.get(path);
        assertThat(response.status()).as("GET %s: %s", path, response).isEqualTo(404);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.problemType()).isEqualTo("unknown-payment");
        assertThat(foreignPaymentRefusals())
                .as("refusals counted for GET %s", path)
                .isEqualTo(before + refusalsCounted);
        return response;
    }

    private double foreignPaymentRefusals() {
        return meters.get(METER)
                .tag("reason", AccessRefusal.FOREIGN_PAYMENT.slug)
                .counter()
                .count();
    }

    private static void expectProblem(Http caller, String path, String type) {
        Http.Response response = caller.get(path);
        assertThat(response.status()).as("GET %s: %s", path, response).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.problemType()).as("GET %s", path).isEqualTo(type);
        assertThat(response.json().get("status").asInt()).isEqualTo(400);
        assertThat(response.json().get("detail").asString()).isNotBlank();
    }
}
