package io.pagora.payments.api;

import static io.pagora.payments.api.PaymentValidationTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.payments.api.testsupport.RequestedEvents;
import io.pagora.payments.api.testsupport.RequestedEvents.Event;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.access.AccessRefusal;
import io.pagora.testing.Http;
import io.pagora.testing.ledger.MoneyInvariants;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Proves who may use each payment-api endpoint, over mutual TLS with certificates made at test time, on real
 * Kafka and PostgreSQL. Bank A (ISPB 51) holds customers a1, a2; bank B (52) holds b1. For every endpoint the
 * owner succeeds; another bank, the operator where it has no business, and an anonymous client are refused;
 * each refused request moves nothing (every ledger account it could touch reads the same before and after,
 * and no {@code PaymentRequested} is published) and is counted once in {@code pagora.access.refusals{reason}}.
 * An object a caller may not touch answers exactly as a missing one (the same status, type, title, field and
 * detail, apart from the ids), so ids cannot be probed. Idempotency-Keys are each participant's own.
 *
 * <p>The matrix as tested (endpoint × caller → answer; "= missing" means byte-for-byte the answer for an
 * object that does not exist, ids apart; the counted reason in brackets):
 * <pre>
 * | endpoint                              | owner                    | another bank                                   | operator                                     | anonymous |
 * |---------------------------------------|--------------------------|------------------------------------------------|----------------------------------------------|-----------|
 * | POST /payments (payer a1)             | A: 202                   | B: 422 unknown-account = missing payer [foreign-account] | 422 unknown-account = missing payer [foreign-account] | 401 unauthenticated [anonymous] |
 * | POST /payments/batch (mixed)          | A: own-payer items ACCEPTED | B's items with A's payers: REJECTED unknown-account = missing payer, per item [foreign-account each]; its own items ACCEPTED | -                | 401 |
 * | POST /banks                           | operator: 201            | 403 forbidden [operator-only]                  | (owner)                                      | 401 |
 * | GET /banks/A                          | operator, A: 200         | B: 404 bank-not-found = unregistered bank [foreign-bank] | (owner)                            | 401 |
 * | POST /accounts {ispb: A}              | A: 201                   | B: 422 unknown-bank = unregistered bank [foreign-bank] | 422 unknown-bank = unregistered bank [foreign-bank] | 401 |
 * | POST /banks/A/reserve-fundings        | operator: 201            | 403 forbidden, A itself included [operator-only] | (owner)                                    | 401 |
 * | POST /accounts/a1/fundings            | A: 201                   | B: 404 account-not-found = missing [foreign-account] | 404 account-not-found = missing [foreign-account] | 401 |
 * | GET /accounts/a1/balance              | A: 200                   | B: 404 account-not-found = missing [foreign-account] | 404 account-not-found = missing [foreign-account] | 401 |
 * | GET /accounts/{central bank}/balance  | operator: 200            | 404 account-not-found = missing [foreign-account] | (owner)                                    | 401 |
 * | GET /openapi.yaml                     | any bank: 200            | -                                              | 200                                          | 401 |
 * | GET /actuator/prometheus              | operator: 200            | 403 forbidden [operator-only]                  | (owner)                                      | 401 |
 * | GET /actuator/health                  | anyone: 200              | 200                                            | 200                                          | 200 |
 * | Idempotency-Key K used by A and by B  | each: 202, two payments  | B cannot replay A's request (its payer is A's: unknown-account) | -                      | -   |
 * </pre>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuthorizationTest extends PaymentApiIntegrationTest {

    static final int A = 51;
    static final int B = 52;
    /** A bank that is never registered: what an unregistered bank is answered. */
    static final int UNREGISTERED = 59;

    @Autowired
    MeterRegistry meters;

    @Autowired
    JdbcTemplate jdbc;

    Participants participants;
    RequestedEvents events;
    Http bankA;
    Http bankB;
    Http operator;
    Http anonymous;
    String a1;
    String a2;
    String b1;
    /** Ids nobody holds, at A's and B's: what "missing" is answered. */
    String missingAtA;

    String missingAtB;

    @BeforeAll
    void setUp() {
        participants = new Participants(port);
        events = new RequestedEvents(kafkaBootstrapServers());
        bankA = participants.bank(A);
        bankB = participants.bank(B);
        operator = participants.operator();
        anonymous = Http.anonymous(port);
        participants.registerBank(A, "Banco A");
        participants.registerBank(B, "Banco B");
        participants.fundReserve(A, 1_000_000_00);
        participants.fundReserve(B, 1_000_000_00);
        a1 = participants.openAccount(A);
        a2 = participants.openAccount(A);
        b1 = participants.openAccount(B);
        participants.fundCustomer(a1, 10_000_00);
        participants.fundCustomer(b1, 10_000_00);
        missingAtA = ChartOfAccounts.customer(new BankId(A), 990_001).toString();
        missingAtB = ChartOfAccounts.customer(new BankId(B), 990_002).toString();
    }

    @AfterAll
    void tearDown() {
        events.close();
        MoneyInvariants.check(ledger, participants.accounts());
    }

    // ---- POST /payments -------------------------------------------------------------------------------

    @Test
    void onlyThePayersBankPaysAndAForeignPayerReadsAsAnUnknownOne() {
        Http.Response own = bankA.post("/payments", Http.payment(a1, b1, 1_00), "Idempotency-Key", key());
        assertThat(own.status()).as("%s", own).isEqualTo(202);

        Http.Response byOtherBank = refused(
                AccessRefusal.FOREIGN_ACCOUNT,
                1,
                () -> bankB.post("/payments", Http.payment(a1, b1, 1_00), "Idempotency-Key", key()));
        Http.Response missingPayer =
                bankB.post("/payments", Http.payment(missingAtB, b1, 1_00), "Idempotency-Key", key());
        assertProblem(byOtherBank, 422, "unknown-account");
        assertSameApartFromIds(byOtherBank, a1, missingPayer, missingAtB);

        Http.Response byOperator = refused(
                AccessRefusal.FOREIGN_ACCOUNT,
                1,
                () -> operator.post("/payments", Http.payment(a1, b1, 1_00), "Idempotency-Key", key()));
        assertSameApartFromIds(byOperator, a1, missingPayer, missingAtB);

        assertProblem(
                refused(
                        AccessRefusal.ANONYMOUS,
                        1,
                        () -> anonymous.post("/payments", Http.payment(a1, b1, 1_00), "Idempotency-Key", key())),
                401,
                "unauthenticated");
    }

    @Test
    void aForeignPayerClaimsNoKeySoItsOwnerCanStillUseIt() {
        String key = key();
        refused(
                AccessRefusal.FOREIGN_ACCOUNT,
                1,
                () -> bankB.post("/payments", Http.payment(a1, b1, 7_00), "Idempotency-Key", key));
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM payment_api.idempotency_keys WHERE idempotency_key = ?", Long.class, key))
                .as("no key claimed for a refused order")
                .isZero();
        Http.Response owner = bankA.post("/payments", Http.payment(a1, b1, 7_00), "Idempotency-Key", key);
        assertThat(owner.status()).as("%s", owner).isEqualTo(202);
        assertThat(owner.header("Idempotent-Replayed")).isEqualTo("false");
    }

    // ---- POST /payments/batch -------------------------------------------------------------------------

    /** One batch of B's: its own payer's items are accepted, those paying from A's customers refused one by one. */
    @Test
    void aMixedBatchAcceptsOwnPayersAndRefusesForeignOnesPerItem() {
        List<Object> items = List.of(
                PaymentBatchTest.item(key(), b1, a1, 1_00), // 0 own payer: accepted
                PaymentBatchTest.item(key(), a1, b1, 2_00), // 1 A's customer: refused
                PaymentBatchTest.item(key(), b1, a2, 3_00), // 2 own payer: accepted
                PaymentBatchTest.item(key(), a2, a1, 4_00), // 3 A's customer: refused
                PaymentBatchTest.item(key(), missingAtB, a1, 5_00)); // 4 missing payer, for comparison
        Map<TopicPartition, Long> mark = events.mark();
        double counted = refusals(AccessRefusal.FOREIGN_ACCOUNT);
        List<Account> before = ledger.lookupAccounts(List.copyOf(participants.accounts()));

        Http.Response response = bankB.post("/payments/batch", Map.of("payments", items));

        assertThat(response.status()).as("%s", response).isEqualTo(200);
        JsonNode results = response.json().path("results");
        List<String> statuses = new ArrayList<>();
        results.forEach(result -> statuses.add(result.path("status").asString()));
        assertThat(statuses).containsExactly("ACCEPTED", "REJECTED", "ACCEPTED", "REJECTED", "REJECTED");
        assertThat(refusals(AccessRefusal.FOREIGN_ACCOUNT) - counted)
                .as("each foreign item counted")
                .isEqualTo(2);
        JsonNode missing = results.get(4).path("problem");
        assertThat(missing.path("type").asString()).endsWith("/unknown-account");
        assertThat(normalized(results.get(1).path("problem"), a1, "payments[1]"))
                .isEqualTo(normalized(missing, missingAtB, "payments[4]"));
        assertThat(normalized(results.get(3).path("problem"), a2, "payments[3]"))
                .isEqualTo(normalized(missing, missingAtB, "payments[4]"));

        List<Event> published = events.since(mark);
        assertThat(published.stream().map(event -> event.payment().paymentId()))
                .as("only the accepted items")
                .containsExactlyInAnyOrder(
                        results.get(0).path("paymentId").asString(),
                        results.get(2).path("paymentId").asString());
        assertThat(published)
                .allSatisfy(
                        event -> assertThat(event.payment().payerAccountId()).isEqualTo(b1));
        assertThat(ledger.lookupAccounts(List.copyOf(participants.accounts())))
                .as("accepting moves no money")
                .isEqualTo(before);

        assertProblem(
                refused(AccessRefusal.ANONYMOUS, 1, () -> anonymous.post("/payments/batch", Map.of("payments", items))),
                401,
                "unauthenticated");
    }

    // ---- Idempotency-Keys are each participant's own -----------------------------------------------------

    @Test
    void twoBanksUsingOneKeyGetTwoPaymentsAndEachReplaysOnlyItsOwn() {
        String key = key();
        Map<TopicPartition, Long> mark = events.mark();

        Http.Response byA = bankA.post("/payments", Http.payment(a1, b1, 11_00), "Idempotency-Key", key);
        Http.Response byB = bankB.post("/payments", Http.payment(b1, a1, 22_00), "Idempotency-Key", key);
        Http.Response replayedByA = bankA.post("/payments", Http.payment(a1, b1, 11_00), "Idempotency-Key", key);
        Http.Response reusedByB = bankB.post("/payments", Http.payment(b1, a1, 23_00), "Idempotency-Key", key);

        assertThat(List.of(byA.status(), byB.status(), replayedByA.status()))
                .as("%s %s %s", byA, byB, replayedByA)
                .containsOnly(202);
        String idA = byA.json().path("paymentId").asString();
        String idB = byB.json().path("paymentId").asString();
        assertThat(idA).isNotEqualTo(idB);
        assertThat(byB.header("Idempotent-Replayed"))
                .as("not A's payment replayed")
                .isEqualTo("false");
        assertThat(replayedByA.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(replayedByA.json().path("paymentId").asString()).isEqualTo(idA);
        assertProblem(reusedByB, 422, "idempotency-key-reused");
        assertThat(reusedByB.json().path("detail").asString()).contains(idB).doesNotContain(idA);
        assertThat(events.since(mark).stream().map(event -> event.payment().paymentId()))
                .containsExactlyInAnyOrder(idA, idB, idA);
        assertThat(jdbc.queryForList(
                        "SELECT participant FROM payment_api.idempotency_keys WHERE idempotency_key = ?",
                        String.class,
                        key))
                .containsExactlyInAnyOrder("ispb-00000051", "ispb-00000052");
    }

    /** The same key from two banks in one group commit (concurrent single payments) is still two keys. */
    @Test
    void concurrentUsesOfOneKeyByTwoBanksAreTwoPayments() throws Exception {
        String key = key();
        int perBank = 8;
        List<Future<Http.Response>> byA = new ArrayList<>();
        List<Future<Http.Response>> byB = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(2 * perBank)) {
            for (int i = 0; i < perBank; i++) {
                byA.add(pool.submit(
                        () -> bankA.post("/payments", Http.payment(a1, b1, 33_00), "Idempotency-Key", key)));
                byB.add(pool.submit(
                        () -> bankB.post("/payments", Http.payment(b1, a1, 33_00), "Idempotency-Key", key)));
            }
            assertThat(paymentIds(byA))
                    .as("all of A's requests name one payment")
                    .hasSize(1);
            assertThat(paymentIds(byB))
                    .as("all of B's requests name one payment")
                    .hasSize(1);
        }
        Set<String> both = new HashSet<>(paymentIds(byA));
        both.addAll(paymentIds(byB));
        assertThat(both).as("A's and B's are two payments").hasSize(2);
    }

    // ---- POST /banks and POST /banks/{ispb}/reserve-fundings: the operator's -----------------------------

    @Test
    void onlyTheOperatorRegistersBanks() {
        assertThat(operator.post("/banks", Map.of("ispb", 53, "name", "Banco C"))
                        .status())
                .isEqualTo(201);
        participants.registerBank(53, "Banco C"); // remembers its accounts for the invariants (200, idempotent)

        Http.Response byBank = refused(
                AccessRefusal.OPERATOR_ONLY, 1, () -> bankA.post("/banks", Map.of("ispb", 54, "name", "Banco D")));
        assertProblem(byBank, 403, "forbidden");
        BankId refusedBank = new BankId(54);
        assertThat(ledger.lookupAccounts(
                        List.of(ChartOfAccounts.reserve(refusedBank), ChartOfAccounts.transit(refusedBank))))
                .as("bank 54 was not registered")
                .isEmpty();
        assertProblem(
                refused(
                        AccessRefusal.OPERATOR_ONLY,
                        1,
                        () -> bankA.post("/banks", Map.of("ispb", A, "name", "Banco A"))),
                403,
                "forbidden");
        assertProblem(
                refused(
                        AccessRefusal.ANONYMOUS,
                        1,
                        () -> anonymous.post("/banks", Map.of("ispb", 55, "name", "Banco E"))),
                401,
                "unauthenticated");
    }

    @Test
    void onlyTheOperatorFundsReserves() {
        String path = "/banks/" + A + "/reserve-fundings";
        String key = key();
        assertProblem(
                refused(
                        AccessRefusal.OPERATOR_ONLY,
                        1,
                        () -> bankA.post(path, Map.of("amountCentavos", 1_00), "Idempotency-Key", key)),
                403,
                "forbidden");
        assertProblem(
                refused(
                        AccessRefusal.OPERATOR_ONLY,
                        1,
                        () -> bankB.post(path, Map.of("amountCentavos", 1_00), "Idempotency-Key", key)),
                403,
                "forbidden");
        assertProblem(
                refused(
                        AccessRefusal.ANONYMOUS,
                        1,
                        () -> anonymous.post(path, Map.of("amountCentavos", 1_00), "Idempotency-Key", key)),
                401,
                "unauthenticated");

        Http.Response funded = operator.post(path, Map.of("amountCentavos", 1_00), "Idempotency-Key", key);
        assertThat(funded.status()).as("%s: the refusals burned no key", funded).isEqualTo(201);
    }

    // ---- GET /banks/{ispb}: the operator and the bank itself ---------------------------------------------

    @Test
    void theOperatorAndTheBankItselfReadABankAndAnotherBankIsAnsweredAsForAnUnregisteredOne() {
        assertThat(operator.get("/banks/00000051").status()).isEqualTo(200);
        assertThat(bankA.get("/banks/00000051").json().path("name").asString()).isEqualTo("Banco A");

        Http.Response unregistered = operator.get("/banks/000000" + UNREGISTERED);
        assertProblem(unregistered, 404, "bank-not-found");
        Http.Response byOtherBank = refused(AccessRefusal.FOREIGN_BANK, 1, () -> bankB.get("/banks/00000051"));
        assertSameApartFromIds(
                byOtherBank, new BankId(A).toString(), unregistered, new BankId(UNREGISTERED).toString());
        assertProblem(
                refused(AccessRefusal.ANONYMOUS, 1, () -> anonymous.get("/banks/00000051")), 401, "unauthenticated");
    }

    // ---- /participants/{ispb}/...: only the bank the path names --------------------------------------------

    /** Another bank's stream or answers, or the operator on any: 403 not-your-stream, counted as foreign-stream. */
    @Test
    void anotherBanksStreamAndAnswersAreRefusedAndCounted() {
        String pathOfA = "/participants/" + new BankId(A);
        assertProblem(
                refused(AccessRefusal.FOREIGN_STREAM, 1, () -> bankB.get(pathOfA + "/stream/start")),
                403,
                "not-your-stream");
        assertProblem(
                refused(AccessRefusal.FOREIGN_STREAM, 1, () -> operator.get(pathOfA + "/stream/start")),
                403,
                "not-your-stream");
        assertProblem(
                refused(
                        AccessRefusal.FOREIGN_STREAM,
                        1,
                        () -> bankB.post(
                                pathOfA + "/answers",
                                Map.of(
                                        "answers",
                                        List.of(Map.of(
                                                "paymentId",
                                                "01a21a0c061daa909fd6699a6b441d00",
                                                "decision",
                                                "ACCEPT"))))),
                403,
                "not-your-stream");
    }

    // ---- POST /accounts: only the bank itself ------------------------------------------------------------

    @Test
    void onlyABankOpensItsCustomersAccountsAndAnotherBankIsAnsweredAsUnregistered() {
        Http.Response own = bankA.post("/accounts", Map.of("ispb", A));
        assertThat(own.status()).as("%s", own).isEqualTo(201);
        participants.accounts().add(Id128.parse(own.json().path("accountId").asString()));

        Http.Response unregistered = participants.bank(UNREGISTERED).post("/accounts", Map.of("ispb", UNREGISTERED));
        assertProblem(unregistered, 422, "unknown-bank");
        Http.Response byOtherBank = refused(
                AccessRefusal.FOREIGN_BANK,
                1,
                () -> bankB.post("/accounts", Map.of("ispb", A, "accountNumber", 424_242)));
        assertSameApartFromIds(
                byOtherBank, new BankId(A).toString(), unregistered, new BankId(UNREGISTERED).toString());
        Http.Response byOperator = refused(
                AccessRefusal.FOREIGN_BANK,
                1,
                () -> operator.post("/accounts", Map.of("ispb", A, "accountNumber", 424_243)));
        assertSameApartFromIds(byOperator, new BankId(A).toString(), unregistered, new BankId(UNREGISTERED).toString());
        assertThat(ledger.lookupAccounts(List.of(
                        ChartOfAccounts.customer(new BankId(A), 424_242),
                        ChartOfAccounts.customer(new BankId(A), 424_243))))
                .as("no account was opened")
                .isEmpty();
        assertProblem(
                refused(AccessRefusal.ANONYMOUS, 1, () -> anonymous.post("/accounts", Map.of("ispb", A))),
                401,
                "unauthenticated");
    }

    // ---- POST /accounts/{id}/fundings: only the account's bank -------------------------------------------

    /**
     * Fundings need no key scope of their own: the transfer id is derived from the key and the funded account,
     * and only the account's bank may fund it, so a key can only ever be one bank's. A refused funding creates
     * no transfer, so the key stays free for the owner.
     */
    @Test
    void onlyTheAccountsBankFundsItAndAnotherCallerIsAnsweredAsForAMissingAccount() {
        String key = key();
        Http.Response missing = bankB.post(
                "/accounts/" + missingAtB + "/fundings", Map.of("amountCentavos", 5_00), "Idempotency-Key", key);
        assertProblem(missing, 404, "account-not-found");
        Http.Response byOtherBank = refused(
                AccessRefusal.FOREIGN_ACCOUNT,
                1,
                () -> bankB.post(
                        "/accounts/" + a1 + "/fundings", Map.of("amountCentavos", 5_00), "Idempotency-Key", key));
        assertSameApartFromIds(byOtherBank, a1, missing, missingAtB);
        Http.Response byOperator = refused(
                AccessRefusal.FOREIGN_ACCOUNT,
                1,
                () -> operator.post(
                        "/accounts/" + a1 + "/fundings", Map.of("amountCentavos", 5_00), "Idempotency-Key", key));
        assertSameApartFromIds(byOperator, a1, missing, missingAtB);
        assertProblem(
                refused(
                        AccessRefusal.ANONYMOUS,
                        1,
                        () -> anonymous.post(
                                "/accounts/" + a1 + "/fundings",
                                Map.of("amountCentavos", 5_00),
                                "Idempotency-Key",
                                key)),
                401,
                "unauthenticated");

        long before = participants.balance(a1);
        Http.Response owner =
                bankA.post("/accounts/" + a1 + "/fundings", Map.of("amountCentavos", 5_00), "Idempotency-Key", key);
        assertThat(owner.status()).as("%s: the key was not burned", owner).isEqualTo(201);
        Http.Response sameKeyOtherAccount =
                bankB.post("/accounts/" + b1 + "/fundings", Map.of("amountCentavos", 5_00), "Idempotency-Key", key);
        assertThat(sameKeyOtherAccount.status()).as("%s", sameKeyOtherAccount).isEqualTo(201);
        assertThat(sameKeyOtherAccount.json().path("transferId").asString())
                .isNotEqualTo(owner.json().path("transferId").asString());
        assertThat(participants.balance(a1)).isEqualTo(before + 5_00);
        MoneyInvariants.check(ledger, participants.accounts());
    }

    // ---- GET /accounts/{id}/balance: only the account's holder -------------------------------------------

    @Test
    void onlyTheAccountsHolderReadsItsBalanceAndAnotherCallerIsAnsweredAsForAMissingAccount() {
        assertThat(bankA.get("/accounts/" + a1 + "/balance").status()).isEqualTo(200);
        Http.Response missing = bankB.get("/accounts/" + missingAtB + "/balance");
        assertProblem(missing, 404, "account-not-found");
        assertSameApartFromIds(
                refused(AccessRefusal.FOREIGN_ACCOUNT, 1, () -> bankB.get("/accounts/" + a1 + "/balance")),
                a1,
                missing,
                missingAtB);
        assertSameApartFromIds(
                refused(AccessRefusal.FOREIGN_ACCOUNT, 1, () -> operator.get("/accounts/" + a1 + "/balance")),
                a1,
                missing,
                missingAtB);
        String reserveOfA = ChartOfAccounts.reserve(new BankId(A)).toString();
        assertThat(bankA.get("/accounts/" + reserveOfA + "/balance").status())
                .as("a bank reads its own reserve")
                .isEqualTo(200);
        assertSameApartFromIds(
                refused(AccessRefusal.FOREIGN_ACCOUNT, 1, () -> bankB.get("/accounts/" + reserveOfA + "/balance")),
                reserveOfA,
                missing,
                missingAtB);

        String centralBank = ChartOfAccounts.centralBank().toString();
        assertThat(operator.get("/accounts/" + centralBank + "/balance").status())
                .isEqualTo(200);
        assertSameApartFromIds(
                refused(AccessRefusal.FOREIGN_ACCOUNT, 1, () -> bankA.get("/accounts/" + centralBank + "/balance")),
                centralBank,
                missing,
                missingAtB);
        assertProblem(
                refused(AccessRefusal.ANONYMOUS, 1, () -> anonymous.get("/accounts/" + a1 + "/balance")),
                401,
                "unauthenticated");
    }

    // ---- The document and the actuator -------------------------------------------------------------------

    @Test
    void theDocumentIsForAnyParticipantMetricsForTheOperatorHealthForAnyone() {
        assertThat(bankA.get("/openapi.yaml").status()).isEqualTo(200);
        assertThat(operator.get("/openapi.yaml").status()).isEqualTo(200);
        assertProblem(
                refused(AccessRefusal.ANONYMOUS, 1, () -> anonymous.get("/openapi.yaml")), 401, "unauthenticated");

        assertThat(operator.get("/actuator/prometheus").status()).isEqualTo(200);
        assertProblem(
                refused(AccessRefusal.OPERATOR_ONLY, 1, () -> bankA.get("/actuator/prometheus")), 403, "forbidden");
        assertProblem(
                refused(AccessRefusal.ANONYMOUS, 1, () -> anonymous.get("/actuator/prometheus")),
                401,
                "unauthenticated");

        for (Http anyone : List.of(anonymous, bankA, operator)) {
            assertThat(anyone.get("/actuator/health").status()).isEqualTo(200);
        }
    }

    // ---- helpers -----------------------------------------------------------------------------------------

    /**
     * Sends a request that must be refused and proves it moved nothing: every account the test knows reads the
     * same in the ledger before and after, nothing was published, and it was counted {@code times} under
     * {@code reason}. Answers the response, for its shape to be checked.
     */
    private Http.Response refused(AccessRefusal reason, int times, Supplier<Http.Response> request) {
        List<Account> before = ledger.lookupAccounts(List.copyOf(participants.accounts()));
        Map<TopicPartition, Long> mark = events.mark();
        double counted = refusals(reason);

        Http.Response response = request.get();

        assertThat(response.status()).as("%s", response).isIn(401, 403, 404, 422);
        assertThat(ledger.lookupAccounts(List.copyOf(participants.accounts())))
                .as("the ledger is unchanged")
                .isEqualTo(before);
        assertThat(events.since(mark)).as("nothing published").isEmpty();
        assertThat(refusals(reason) - counted).as("counted as %s", reason.slug).isEqualTo(times);
        return response;
    }

    private double refusals(AccessRefusal reason) {
        return meters.get("pagora.access.refusals")
                .tag("reason", reason.slug)
                .counter()
                .count();
    }

    /** The two answers are identical once each one's own id is replaced by the same placeholder. */
    private static void assertSameApartFromIds(
            Http.Response refused, String refusedId, Http.Response missing, String missingId) {
        assertThat(refused.status()).as("%s", refused).isEqualTo(missing.status());
        assertThat(refused.contentType()).isEqualTo(missing.contentType());
        assertThat(refused.body().replace(refusedId, "<id>"))
                .as("refused reads as missing")
                .isEqualTo(missing.body().replace(missingId, "<id>"));
    }

    /** A batch item's problem with its id and its index replaced by placeholders. */
    private static String normalized(JsonNode problem, String id, String item) {
        return problem.toString().replace(id, "<id>").replace(item, "payments[<i>]");
    }

    private static Set<String> paymentIds(List<Future<Http.Response>> responses) throws Exception {
        Set<String> ids = new HashSet<>();
        for (Future<Http.Response> future : responses) {
            Http.Response response = future.get();
            assertThat(response.status()).as("%s", response).isEqualTo(202);
            ids.add(response.json().path("paymentId").asString());
        }
        return ids;
    }

    private static String key() {
        return "authz-" + UUID.randomUUID();
    }
}
