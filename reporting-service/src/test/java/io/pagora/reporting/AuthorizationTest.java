package io.pagora.reporting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.reporting.testsupport.EventPublisher;
import io.pagora.reporting.testsupport.Payments;
import io.pagora.reporting.testsupport.Payments.Payment;
import io.pagora.reporting.testsupport.ReportingIntegrationTest;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.access.AccessRefusal;
import io.pagora.testing.Http;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Proves who may read what from reporting-service, on the real service (mutual TLS with certificates made
 * at test time, real Kafka and PostgreSQL): for every endpoint, the payer's bank (00000011), the payee's
 * bank (00000012), a third bank (00000013, party to a payment of its own with bank 00000014), the operator
 * and an anonymous client (TLS without a certificate) get exactly the answer below, and every refusal is
 * counted once in {@code pagora.access.refusals{reason}} (no other reason moves). The read model holds one
 * payment P of 43.21 BRL from the payer's account A (bank 11) to the payee's account B (bank 12), SETTLED on
 * day D (2032-03-04).
 *
 * <table>
 * <caption>endpoint × caller → answer (refusal counted)</caption>
 * <tr><th>endpoint</th><th>payer's bank</th><th>payee's bank</th><th>third bank</th><th>operator</th>
 *     <th>anonymous</th></tr>
 * <tr><td>GET /payments/{P}</td><td>200 P</td><td>200 P</td>
 *     <td>404 unknown-payment, the body of an unknown id (foreign-payment)</td>
 *     <td>404 unknown-payment, likewise (foreign-payment)</td><td>401 unauthenticated (anonymous)</td></tr>
 * <tr><td>GET /accounts/{A}/statement</td><td>200, P's DEBIT</td>
 *     <td>404 unknown-account, the body of any other bank's account, used or not (foreign-account)</td>
 *     <td>404 unknown-account, likewise (foreign-account)</td><td>404 unknown-account, likewise (foreign-account)</td>
 *     <td>401 (anonymous)</td></tr>
 * <tr><td>GET /accounts/{B}/statement</td><td>404 unknown-account, likewise (foreign-account)</td><td>200, P's CREDIT</td>
 *     <td>404 unknown-account, likewise (foreign-account)</td><td>404 unknown-account, likewise (foreign-account)</td>
 *     <td>401 (anonymous)</td></tr>
 * <tr><td>GET /banks/00000011/positions?date=D</td><td>200, sent 4321 (1)</td>
 *     <td>404 unknown-bank, the body of any other bank's positions (foreign-bank)</td>
 *     <td>404 unknown-bank, likewise (foreign-bank)</td><td>200, sent 4321 (1)</td><td>401 (anonymous)</td></tr>
 * <tr><td>GET /payments (and ?status=SETTLED)</td><td>200 [P]</td><td>200 [P]</td>
 *     <td>200, its own payment only (not P)</td><td>403 forbidden (bank-only)</td><td>401 (anonymous)</td></tr>
 * <tr><td>GET /stats</td><td>403 forbidden (operator-only)</td><td>403 forbidden (operator-only)</td>
 *     <td>403 forbidden (operator-only)</td><td>200</td><td>401 (anonymous)</td></tr>
 * <tr><td>GET /openapi.yaml</td><td>200</td><td>200</td><td>200</td><td>200</td><td>401 (anonymous)</td></tr>
 * <tr><td>GET /actuator/prometheus</td><td>403 forbidden (operator-only)</td><td>403 forbidden (operator-only)</td>
 *     <td>403 forbidden (operator-only)</td><td>200</td><td>401 (anonymous)</td></tr>
 * <tr><td>GET /actuator/health</td><td>200</td><td>200</td><td>200</td><td>200</td><td>200</td></tr>
 * </table>
 *
 * <p>Why a refused statement or position cannot be probed: it is decided from the id alone (account ids name
 * their bank), before any query, so another bank's account answers the same 404 whether it exists, has moved
 * money or never did; the test asks for a used account and a never-used one and compares the bodies. (The
 * read model knows accounts only by their movements, so the caller's own never-used account is a 200 empty
 * statement: that tells the caller nothing it does not know.) A payment has to be read to know its parties:
 * refused, it is dropped whole and answered with the unknown-payment problem and detail of a payment never
 * projected.
 *
 * <p>Why the operator's listing is a 403 and not an empty list: the listing answers a bank the payments it is
 * party to, and the operator is party to none (a payment is read only by its payer's or payee's bank). An
 * empty list would tell the operator "no payments" when there are; 403 tells it the function is not its own,
 * which depends on who calls only and hides nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuthorizationTest extends ReportingIntegrationTest {

    private static final int PAYER_BANK = 11;
    private static final int PAYEE_BANK = 12;
    private static final int THIRD_BANK = 13;
    private static final int NO_PAYMENTS_BANK = 99;
    private static final String DAY = "2032-03-04";
    private static final String METER = "pagora.access.refusals";

    @Autowired
    MeterRegistry meters;

    private final String payer = Payments.customer(PAYER_BANK);
    private final String payee = Payments.customer(PAYEE_BANK);
    private final Payment payment = Payments.between(payer, payee, 4_321);
    private final Payment thirdBanksOwn = Payments.between(Payments.customer(THIRD_BANK), Payments.customer(14), 99);

    @BeforeAll
    void projectTwoPayments() {
        try (EventPublisher publisher = new EventPublisher(bootstrapServers)) {
            publisher.publish(
                    payment.requested(),
                    payment.settled(Instant.parse(DAY + "T10:00:00Z")),
                    thirdBanksOwn.requested(),
                    thirdBanksOwn.settled());
        }
        for (Payment projected : List.of(payment, thirdBanksOwn)) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Http.Response response = bankOf(projected.payer()).get("/payments/" + projected.paymentId());
                assertThat(response.status()).as(response.body()).isEqualTo(200);
                assertThat(response.json().get("status").asString()).isEqualTo("SETTLED");
                assertThat(response.json().has("currency")).isTrue();
            });
        }
    }

    @Test
    void aPaymentIsReadByItsPayersAndPayeesBanksOnlyAndRefusedAsAnUnknownOne() {
        String path = "/payments/" + payment.paymentId();
        for (Http party : List.of(bank(PAYER_BANK), bank(PAYEE_BANK))) {
            JsonNode read = expect(party, path, 200, null).json();
            assertThat(read.get("paymentId").asString()).isEqualTo(payment.paymentId());
            assertThat(read.get("payerAccountId").asString()).isEqualTo(payer);
            assertThat(read.get("amountCentavos").asLong()).isEqualTo(4_321);
        }
        String unknownId = new TimeOrderedIds().next().toString();
        for (Http stranger : List.of(bank(THIRD_BANK), operator())) {
            Http.Response unknown = expect(stranger, "/payments/" + unknownId, 404, null);
            Http.Response refused = expect(stranger, path, 404, AccessRefusal.FOREIGN_PAYMENT);
            assertThat(refused.problemType()).isEqualTo("unknown-payment");
            assertThat(refused.contentType()).isEqualTo(unknown.contentType());
            assertThat(refused.body())
                    .as("refused reads exactly as unknown, but for the id asked")
                    .isEqualTo(unknown.body().replace(unknownId, payment.paymentId()));
        }
        expectAnonymousRefused(path);
    }

    @Test
    void aStatementIsReadByTheAccountsBankOnlyAndRefusedAlikeWhetherTheAccountWasUsedOrNot() {
        JsonNode payersOwn =
                expect(bank(PAYER_BANK), statement(payer), 200, null).json();
        assertThat(payersOwn.get("entries")).singleElement().satisfies(entry -> {
            assertThat(entry.get("paymentId").asString()).isEqualTo(payment.paymentId());
            assertThat(entry.get("direction").asString()).isEqualTo("DEBIT");
        });
        JsonNode payeesOwn =
                expect(bank(PAYEE_BANK), statement(payee), 200, null).json();
        assertThat(payeesOwn.get("entries"))
                .singleElement()
                .satisfies(
                        entry -> assertThat(entry.get("direction").asString()).isEqualTo("CREDIT"));

        for (int holder : List.of(PAYER_BANK, PAYEE_BANK)) {
            String account = holder == PAYER_BANK ? payer : payee;
            String neverUsed = Payments.customer(holder);
            for (Http stranger :
                    List.of(bank(holder == PAYER_BANK ? PAYEE_BANK : PAYER_BANK), bank(THIRD_BANK), operator())) {
                Http.Response refused = expect(stranger, statement(account), 404, AccessRefusal.FOREIGN_ACCOUNT);
                assertThat(refused.problemType()).isEqualTo("unknown-account");
                Http.Response refusedNeverUsed =
                        expect(stranger, statement(neverUsed), 404, AccessRefusal.FOREIGN_ACCOUNT);
                assertThat(refused.body())
                        .as("a used account is refused exactly as a never-used one")
                        .isEqualTo(refusedNeverUsed.body().replace(neverUsed, account));
            }
            expectAnonymousRefused(statement(account));
        }
        // The central bank's account is the operator's (it mints the reserves); the read model has no movements of it.
        expect(operator(), statement(ChartOfAccounts.centralBank().toString()), 200, null);
    }

    @Test
    void positionsAreReadByThatBankOrTheOperatorAndRefusedAlikeWhetherTheBankPaidOrNot() {
        String path = positions(PAYER_BANK);
        for (Http allowed : List.of(bank(PAYER_BANK), operator())) {
            JsonNode position = expect(allowed, path, 200, null).json();
            assertThat(position.get("sentCentavos").asLong()).isEqualTo(4_321);
            assertThat(position.get("sentCount").asLong()).isEqualTo(1);
        }
        for (Http stranger : List.of(bank(PAYEE_BANK), bank(THIRD_BANK))) {
            Http.Response refused = expect(stranger, path, 404, AccessRefusal.FOREIGN_BANK);
            assertThat(refused.problemType()).isEqualTo("unknown-bank");
            Http.Response nothing = expect(stranger, positions(NO_PAYMENTS_BANK), 404, AccessRefusal.FOREIGN_BANK);
            assertThat(refused.body())
                    .as("a bank that paid is refused exactly as one that never did")
                    .isEqualTo(nothing.body().replace(ispb(NO_PAYMENTS_BANK), ispb(PAYER_BANK)));
        }
        expectAnonymousRefused(path);
    }

    @Test
    void theListingAnswersEachBankItsOwnPaymentsAndRefusesTheOperator() {
        for (String path : List.of("/payments", "/payments?status=SETTLED&limit=100")) {
            assertThat(listed(expect(bank(PAYER_BANK), path, 200, null))).containsExactly(payment.paymentId());
            assertThat(listed(expect(bank(PAYEE_BANK), path, 200, null))).containsExactly(payment.paymentId());
            assertThat(listed(expect(bank(THIRD_BANK), path, 200, null))).containsExactly(thirdBanksOwn.paymentId());
            assertThat(expect(operator(), path, 403, AccessRefusal.BANK_ONLY).problemType())
                    .isEqualTo("forbidden");
            expectAnonymousRefused(path);
        }
        assertThat(listed(expect(bank(PAYER_BANK), "/payments?status=REJECTED", 200, null)))
                .isEmpty();
    }

    @Test
    void statisticsAreTheOperatorsOnly() {
        for (Http bank : banks()) {
            assertThat(expect(bank, "/stats", 403, AccessRefusal.OPERATOR_ONLY).problemType())
                    .isEqualTo("forbidden");
        }
        assertThat(expect(operator(), "/stats", 200, null).json().get("total").asLong())
                .isEqualTo(2);
        expectAnonymousRefused("/stats");
    }

    @Test
    void theOpenApiDocumentIsForEveryParticipant() {
        List<Http> participants = new ArrayList<>(banks());
        participants.add(operator());
        for (Http participant : participants) {
            assertThat(expect(participant, "/openapi.yaml", 200, null).body()).startsWith("openapi: 3.1.0");
        }
        expectAnonymousRefused("/openapi.yaml");
    }

    @Test
    void theActuatorIsTheOperatorsButHealthIsOpen() {
        for (Http bank : banks()) {
            assertThat(expect(bank, "/actuator/prometheus", 403, AccessRefusal.OPERATOR_ONLY)
                            .problemType())
                    .isEqualTo("forbidden");
            expect(bank, "/actuator/health", 200, null);
        }
        assertThat(expect(operator(), "/actuator/prometheus", 200, null).body())
                .contains("pagora_access_refusals_total");
        expectAnonymousRefused("/actuator/prometheus");
        expect(operator(), "/actuator/health", 200, null);
        assertThat(expect(anonymous(), "/actuator/health", 200, null)
                        .json()
                        .get("status")
                        .asString())
                .isEqualTo("UP");
    }

    private List<Http> banks() {
        return List.of(bank(PAYER_BANK), bank(PAYEE_BANK), bank(THIRD_BANK));
    }

    private void expectAnonymousRefused(String path) {
        assertThat(expect(anonymous(), path, 401, AccessRefusal.ANONYMOUS).problemType())
                .isEqualTo("unauthenticated");
    }

    /**
     * GETs {@code path} as {@code caller} and checks the status, that an error is problem+json, and that exactly
     * {@code counted} (or no reason, when null) was counted once.
     */
    private Http.Response expect(Http caller, String path, int status, AccessRefusal counted) {
        Map<AccessRefusal, Double> before = refusals();
        Http.Response response = caller.get(path);
        assertThat(response.status()).as("GET %s: %s", path, response).isEqualTo(status);
        if (status >= 400) {
            assertThat(response.contentType()).startsWith("application/problem+json");
            assertThat(response.json().get("status").asInt()).isEqualTo(status);
        }
        Map<AccessRefusal, Double> expected = new EnumMap<>(before);
        if (counted != null) {
            expected.merge(counted, 1.0, Double::sum);
        }
        assertThat(refusals()).as("refusals counted for GET %s", path).isEqualTo(expected);
        return response;
    }

    private Map<AccessRefusal, Double> refusals() {
        Map<AccessRefusal, Double> counts = new EnumMap<>(AccessRefusal.class);
        for (AccessRefusal reason : AccessRefusal.values()) {
            counts.put(
                    reason,
                    meters.get(METER).tag("reason", reason.slug).counter().count());
        }
        return counts;
    }

    private static String positions(int bank) {
        return "/banks/" + ispb(bank) + "/positions?date=" + DAY;
    }

    private static String ispb(int bank) {
        return new BankId(bank).toString();
    }

    private static String statement(String account) {
        return "/accounts/" + account + "/statement";
    }

    private static List<String> listed(Http.Response listing) {
        List<String> ids = new ArrayList<>();
        listing.json()
                .get("payments")
                .forEach(item -> ids.add(item.get("paymentId").asString()));
        return ids;
    }
}
