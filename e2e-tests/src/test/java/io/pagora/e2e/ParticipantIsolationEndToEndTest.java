package io.pagora.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.e2e.support.Books;
import io.pagora.e2e.support.Books.View;
import io.pagora.e2e.support.Pagora;
import io.pagora.e2e.support.Participants;
import io.pagora.e2e.support.Participants.Customer;
import io.pagora.e2e.support.PaymentBook;
import io.pagora.e2e.support.PaymentBook.Answer;
import io.pagora.e2e.support.PaymentBook.Order;
import io.pagora.e2e.support.Quiescence;
import io.pagora.e2e.support.Service;
import io.pagora.events.PaymentRequested;
import io.pagora.events.Topics;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.Http;
import io.pagora.testing.ServerBacked;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Proves, on the whole platform over mutual TLS (payment-api, clearing-service and reporting-service on Kafka,
 * PostgreSQL and the ledger, every client presenting a certificate of the test CA), that a participant reaches
 * only its own customers' money and its own payments:
 * <ul>
 *   <li>bank A pays a customer of bank B: the payment settles, and A and B both read it from reporting-service;
 *       a third bank C, and the operator too, are answered exactly as for a payment id that does not exist (404,
 *       the same body); the operator reads the banks' positions; C's listing shows none of A's payments;
 *   <li>bank A ordering a payment from B's customer is answered exactly as a payer account that does not exist,
 *       singly and in a batch; it moves nothing (every ledger balance unchanged, no payment requested on Kafka)
 *       and claims no Idempotency-Key: A and B each then use that very key for a payment of their own;
 *   <li>C reads neither A's customer's balance (payment-api: exactly as a missing account) nor its statement;
 *   <li>a client without a certificate gets 401 from payment-api and reporting-service alike (their health
 *       stays open to probes); every refusal is counted by reason;
 * </ul>
 * and ends with the money invariants: Σ debits = Σ credits, no limited account below zero, every accepted payment
 * in exactly one final state, read model = ledger. Who may do what does not depend on the ledger backend: the
 * PostgreSQL ledger only.
 */
@ServerBacked
class ParticipantIsolationEndToEndTest {

    static final int BANK_A = 10_101_010;
    static final int BANK_B = 20_202_020;
    static final int BANK_C = 30_303_030;
    static final long RESERVE_FUNDING_CENTAVOS = 10_000_000L;
    static final long CUSTOMER_FUNDING_CENTAVOS = 100_000L;
    static final long PAID_CENTAVOS = 12_345L;
    /** An account number no bank opened in this scenario. */
    static final long NEVER_OPENED = 999_999_999L;

    static final Duration FINAL_STATES_TIMEOUT = Duration.ofSeconds(60);

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aBankReachesOnlyItsOwnCustomersMoneyAndPayments() {
        // Every receiving bank accepts, none is silent: each accepted payment settles.
        try (Pagora pagora = Pagora.start(new Pagora.Options("postgresql", 1.0, 0.0, Duration.ofSeconds(2), 1))) {
            pagora.startClearing();
            Participants participants = new Participants(pagora.paymentApi());
            Customer alice = participants.bankWithCustomer(BANK_A, RESERVE_FUNDING_CENTAVOS, CUSTOMER_FUNDING_CENTAVOS);
            Customer bob = participants.bankWithCustomer(BANK_B, RESERVE_FUNDING_CENTAVOS, CUSTOMER_FUNDING_CENTAVOS);
            Customer carol = participants.bankWithCustomer(BANK_C, RESERVE_FUNDING_CENTAVOS, CUSTOMER_FUNDING_CENTAVOS);
            PaymentBook book = new PaymentBook(pagora.paymentApi());

            PaymentId paid = aPaysBsCustomerAndItSettles(pagora, book, alice, bob);
            onlyThePartiesReadThePayment(pagora, paid);
            aCannotMoveBsCustomersMoney(pagora, participants, book, alice, bob, carol);
            cReadsNeitherBalanceNorStatementOfAsCustomer(pagora, alice, paid);
            anonymousIsRefusedEverywhereButHealth(pagora, alice, bob, paid);
            everyRefusalIsCounted(pagora);

            Quiescence.await(pagora, Duration.ofSeconds(60));
            Map<PaymentId, View> views =
                    Books.awaitFinalStates(pagora.reporting(), book.accepted(), FINAL_STATES_TIMEOUT);
            assertThat(views.values()).extracting(View::outcome).containsOnly("SETTLED");
            Books.assertMoneyInvariants(pagora.ledger(), participants.allAccounts(), Duration.ofSeconds(15));
            Books.assertReadModelEqualsLedger(pagora, participants, book.accepted(), views);
            Books.assertOutcomesAgreeAndNothingLost(pagora, views);
        }
    }

    /** The operator registers the bank and funds its reserve; the bank opens and funds its customer. */
    private static PaymentId aPaysBsCustomerAndItSettles(
            Pagora pagora, PaymentBook book, Customer alice, Customer bob) {
        Answer answer = book.pay(Order.of(alice.id(), bob.id(), PAID_CENTAVOS));
        assertThat(answer.accepted()).as("A pays B's customer: %s", answer).isTrue();
        PaymentId paid = PaymentId.parse(answer.paymentId());
        Map<PaymentId, View> views = Books.awaitFinalStates(pagora.reporting(), book.accepted(), FINAL_STATES_TIMEOUT);
        assertThat(views.get(paid).outcome()).isEqualTo("SETTLED");
        return paid;
    }

    private static void onlyThePartiesReadThePayment(Pagora pagora, PaymentId paid) {
        Service reporting = pagora.reporting();
        String path = "/payments/" + paid;
        Http.Response byPayersBank = reporting.asBank(BANK_A).get(path);
        Http.Response byPayeesBank = reporting.asBank(BANK_B).get(path);
        assertThat(byPayersBank.status())
                .as("the payer's bank reads it: %s", byPayersBank)
                .isEqualTo(200);
        assertThat(byPayeesBank.status())
                .as("the payee's bank reads it: %s", byPayeesBank)
                .isEqualTo(200);
        assertThat(byPayeesBank.json()).as("both banks see the same payment").isEqualTo(byPayersBank.json());

        PaymentId unknown =
                new PaymentId(new Id128(paid.value().hi(), paid.value().lo() + 0x100));
        assertAnsweredAsMissing(reporting.asBank(BANK_C), "/payments/%s", paid.toString(), unknown.toString());
        assertAnsweredAsMissing(reporting.asOperator(), "/payments/%s", paid.toString(), unknown.toString());

        LocalDate day = LocalDate.ofInstant(
                Instant.parse(byPayersBank.json().path("finalAt").asString()), ZoneOffset.UTC);
        for (int ispb : List.of(BANK_A, BANK_B)) {
            Http.Response positions = reporting.asOperator().get("/banks/" + ispb + "/positions?date=" + day);
            assertThat(positions.status())
                    .as("the operator reads %d's positions: %s", ispb, positions)
                    .isEqualTo(200);
            assertThat(positions.json().path("netCentavos").asLong())
                    .as("%d's net position", ispb)
                    .isEqualTo(ispb == BANK_A ? -PAID_CENTAVOS : PAID_CENTAVOS);
        }
        assertThat(listedPaymentIds(reporting.asBank(BANK_A))).as("A's listing").contains(paid.toString());
        assertThat(listedPaymentIds(reporting.asBank(BANK_C)))
                .as("C's listing shows none of A's and B's payments")
                .isEmpty();
    }

    /**
     * A's orders with B's customer as payer are answered as an unknown payer (singly and in a batch), and move
     * nothing; the key A sent stays free: A and B each use it for a payment of their own.
     */
    private static void aCannotMoveBsCustomersMoney(
            Pagora pagora, Participants participants, PaymentBook book, Customer alice, Customer bob, Customer carol) {
        List<Account> before = pagora.ledger().lookupAccounts(List.copyOf(participants.allAccounts()));
        Id128 neverOpenedAtA = ChartOfAccounts.customer(new BankId(BANK_A), NEVER_OPENED);
        Http asA = pagora.paymentApi().asBank(BANK_A);

        Order foreign = Order.of(bob.id(), carol.id(), 1_000L);
        Order unknownPayer = Order.of(neverOpenedAtA, carol.id(), 1_000L);
        Http.Response refused = asA.post("/payments", foreign.body(), "Idempotency-Key", foreign.key());
        Http.Response missing = asA.post("/payments", unknownPayer.body(), "Idempotency-Key", unknownPayer.key());
        assertThat(missing.status()).as("an unknown payer: %s", missing).isEqualTo(422);
        assertThat(missing.problemType()).isEqualTo("unknown-account");
        assertIndistinguishable(refused, bob.id().toString(), missing, neverOpenedAtA.toString());

        List<Answer> batch = book.payBatchAs(
                asA, List.of(Order.of(bob.id(), alice.id(), 1_000L), Order.of(neverOpenedAtA, alice.id(), 1_000L)));
        assertThat(batch.getFirst())
                .as("a batch item paying from B's customer, answered as an unknown payer")
                .isEqualTo(batch.getLast());
        assertThat(batch.getLast().problemType()).isEqualTo("unknown-account");

        assertThat(pagora.ledger().lookupAccounts(List.copyOf(participants.allAccounts())))
                .as("A's orders from B's customer moved nothing")
                .isEqualTo(before);
        assertThat(pagora.kafka().events(Topics.PAYMENTS_REQUESTED))
                .as("no payment from B's customer was requested")
                .noneMatch(event -> event instanceof PaymentRequested requested
                        && requested.payerAccountId().equals(bob.id().toString()));

        Answer aReusesTheKey = book.pay(new Order(foreign.key(), alice.id(), carol.id(), 2_000L));
        assertThat(aReusesTheKey)
                .as("A's refused order claimed no key: A's own payment under it is new")
                .matches(answer -> answer.accepted() && !answer.replayed(), "accepted, not replayed");
        Answer bUsesTheKey = book.pay(new Order(foreign.key(), bob.id(), alice.id(), 3_000L));
        assertThat(bUsesTheKey)
                .as("keys are each bank's own: B's payment under A's key is B's, and new")
                .matches(answer -> answer.accepted() && !answer.replayed(), "accepted, not replayed");
        assertThat(bUsesTheKey.paymentId()).isNotEqualTo(aReusesTheKey.paymentId());
    }

    private static void cReadsNeitherBalanceNorStatementOfAsCustomer(Pagora pagora, Customer alice, PaymentId paid) {
        Id128 neverOpenedAtC = ChartOfAccounts.customer(new BankId(BANK_C), NEVER_OPENED);
        assertAnsweredAsMissing(
                pagora.paymentApi().asBank(BANK_C),
                "/accounts/%s/balance",
                alice.id().toString(),
                neverOpenedAtC.toString());
        Http.Response ownBalance = pagora.paymentApi().asBank(BANK_A).get("/accounts/" + alice.id() + "/balance");
        assertThat(ownBalance.status())
                .as("A reads its customer's balance: %s", ownBalance)
                .isEqualTo(200);

        String statement = "/accounts/" + alice.id() + "/statement";
        Http.Response ownStatement = pagora.reporting().asBank(BANK_A).get(statement);
        assertThat(ownStatement.status())
                .as("A reads its customer's statement: %s", ownStatement)
                .isEqualTo(200);
        assertThat(ownStatement.body()).contains(paid.toString());
        Http.Response foreignStatement = pagora.reporting().asBank(BANK_C).get(statement);
        assertThat(foreignStatement.status())
                .as("C reads A's customer's statement: %s", foreignStatement)
                .isEqualTo(404);
        assertThat(foreignStatement.contentType()).startsWith("application/problem+json");
        assertThat(foreignStatement.body())
                .as("C learns nothing of A's customer's payments")
                .doesNotContain(paid.toString());
    }

    private static void anonymousIsRefusedEverywhereButHealth(
            Pagora pagora, Customer alice, Customer bob, PaymentId paid) {
        Http paymentApi = pagora.paymentApi().anonymous();
        Http reporting = pagora.reporting().anonymous();
        Order order = Order.of(alice.id(), bob.id(), 1_000L);
        List<Http.Response> refused = List.of(
                paymentApi.post("/payments", order.body(), "Idempotency-Key", order.key()),
                paymentApi.get("/accounts/" + alice.id() + "/balance"),
                reporting.get("/payments/" + paid),
                reporting.get("/accounts/" + alice.id() + "/statement"),
                reporting.get("/stats"));
        for (Http.Response response : refused) {
            assertThat(response.status()).as("anonymous: %s", response).isEqualTo(401);
            assertThat(response.problemType()).isEqualTo("unauthenticated");
        }
        assertThat(paymentApi.get("/actuator/health").status())
                .as("payment-api's health is open")
                .isEqualTo(200);
        assertThat(reporting.get("/actuator/health").status())
                .as("reporting-service's health is open")
                .isEqualTo(200);
    }

    /** Each service counted its refusals by reason ({@code pagora.access.refusals}), as the operator scrapes them. */
    private static void everyRefusalIsCounted(Pagora pagora) {
        String paymentApi =
                pagora.paymentApi().asOperator().get("/actuator/prometheus").body();
        String reporting =
                pagora.reporting().asOperator().get("/actuator/prometheus").body();
        String refusals = "pagora_access_refusals_total";
        // Two orders from B's customer and C's read of A's customer's balance; the anonymous requests.
        assertThat(Books.metric(paymentApi, refusals, "reason=\"foreign-account\""))
                .as("payment-api, foreign account")
                .isGreaterThanOrEqualTo(3);
        assertThat(Books.metric(paymentApi, refusals, "reason=\"anonymous\""))
                .as("payment-api, anonymous")
                .isGreaterThanOrEqualTo(2);
        // C's and the operator's reads of the payment, C's read of the statement; the anonymous requests.
        assertThat(Books.metric(reporting, refusals, "reason=\"foreign-payment\""))
                .as("reporting, foreign payment")
                .isGreaterThanOrEqualTo(2);
        assertThat(Books.metric(reporting, refusals, "reason=\"foreign-account\""))
                .as("reporting, foreign account")
                .isGreaterThanOrEqualTo(1);
        assertThat(Books.metric(reporting, refusals, "reason=\"anonymous\""))
                .as("reporting, anonymous")
                .isGreaterThanOrEqualTo(3);
    }

    /**
     * {@code caller}'s answer for the path naming {@code id} is its answer for the same path naming {@code missingId},
     * an object that does not exist: 404, same content type, same body but for the id itself.
     */
    private static void assertAnsweredAsMissing(Http caller, String pathFormat, String id, String missingId) {
        Http.Response missing = caller.get(pathFormat.formatted(missingId));
        assertThat(missing.status())
                .as("%s: %s", pathFormat.formatted(missingId), missing)
                .isEqualTo(404);
        assertIndistinguishable(caller.get(pathFormat.formatted(id)), id, missing, missingId);
    }

    /** The refusal tells nothing the answer for a missing object would not: same status, content type and body. */
    private static void assertIndistinguishable(
            Http.Response refused, String refusedId, Http.Response missing, String missingId) {
        assertThat(refused.status())
                .as("refused like a missing object: %s", refused)
                .isEqualTo(missing.status());
        assertThat(refused.contentType()).isEqualTo(missing.contentType());
        assertThat(refused.body().replace(refusedId, "{id}"))
                .isEqualTo(missing.body().replace(missingId, "{id}"));
    }

    private static List<String> listedPaymentIds(Http caller) {
        List<String> ids = new ArrayList<>();
        for (JsonNode item : caller.json("/payments?limit=100").path("payments")) {
            ids.add(item.path("paymentId").asString());
        }
        return ids;
    }
}
