package io.pagora.payments.api;

import static io.pagora.payments.api.PaymentValidationTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.payments.api.application.administration.RandomAccountNumbers;
import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.testing.Http;
import io.pagora.testing.ledger.MoneyInvariants;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * Proves the participant administration flow over HTTP, with the ledger as the authority: the central
 * bank exists from startup; banks register idempotently (201, then 200; another name → 409); customer
 * accounts open with allocated or chosen numbers (allocation never takes a number chosen explicitly; unknown
 * bank → 422); reserve and customer fundings are idempotent per key (same key → same transfer, 200;
 * other amount → 422 idempotency-key-reused; a funding refused for an unknown bank does not burn its
 * key); balances read back equal the ledger's, and the money invariants hold at the end; a bank reads back as
 * registered (GET /banks/{ispb}); an account opened with an Idempotency-Key is opened once and replayed. Each request presents
 * the identity that may make it: the operator registers banks and funds reserves, bank 12345678 opens,
 * funds and reads its customers' accounts (who else is refused: {@link AuthorizationTest}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AdministrationTest extends PaymentApiIntegrationTest {

    Participants participants;
    /** The switch operator: banks and reserves, and the central bank's balance. */
    Http operator;
    /** Bank 12345678: its customers' accounts, fundings and balances. */
    Http bank;

    final Set<Id128> touched = new LinkedHashSet<>(List.of(ChartOfAccounts.centralBank()));
    String customerA;
    String customerB;

    @BeforeAll
    void setUp() {
        participants = new Participants(port);
        operator = participants.operator();
        bank = participants.bank(12_345_678);
    }

    @Test
    @Order(1)
    void centralBankExistsFromStartup() {
        Http.Response balance = operator.get("/accounts/" + ChartOfAccounts.centralBank() + "/balance");
        assertThat(balance.status()).as("%s", balance).isEqualTo(200);
        assertThat(balance.json().path("kind").asString()).isEqualTo("CENTRAL_BANK");
    }

    @Test
    @Order(2)
    void banksRegisterIdempotently() {
        Http.Response created = operator.post("/banks", Map.of("ispb", 12_345_678, "name", "Banco Exemplo S.A."));
        assertThat(created.status()).as("%s", created).isEqualTo(201);
        BankId bank = new BankId(12_345_678);
        assertThat(created.json().path("reserveAccountId").asString())
                .isEqualTo(ChartOfAccounts.reserve(bank).toString());
        assertThat(created.json().path("transitAccountId").asString())
                .isEqualTo(ChartOfAccounts.transit(bank).toString());
        touched.add(ChartOfAccounts.reserve(bank));
        touched.add(ChartOfAccounts.transit(bank));

        Http.Response again = operator.post("/banks", Map.of("ispb", 12_345_678, "name", "Banco Exemplo S.A."));
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json()).isEqualTo(created.json());
        assertProblem(
                operator.post("/banks", Map.of("ispb", 12_345_678, "name", "Outro Nome")), 409, "bank-name-conflict");

        assertThat(operator.post("/banks", Map.of("ispb", 0, "name", "Banco Zero"))
                        .status())
                .isEqualTo(201);
        touched.add(ChartOfAccounts.reserve(new BankId(0)));
        touched.add(ChartOfAccounts.transit(new BankId(0)));

        assertProblem(
                operator.post("/banks", Map.of("ispb", 123_456_789, "name", "Too many digits")), 400, "invalid-field");
        assertProblem(operator.post("/banks", Map.of("ispb", -1, "name", "Negative")), 400, "invalid-field");
        assertProblem(operator.post("/banks", Map.of("ispb", "00000001", "name", "String ISPB")), 400, "invalid-field");
        assertProblem(operator.post("/banks", Map.of("ispb", 5)), 400, "missing-field");
        assertProblem(operator.post("/banks", Map.of("ispb", 5, "name", "  ")), 400, "invalid-field");
        assertProblem(operator.post("/banks", "{\"ispb\":"), 400, "malformed-json");
    }

    @Test
    @Order(3)
    void customerAccountsOpenWithAllocatedOrChosenNumbers() {
        Http.Response chosen = bank.post("/accounts", Map.of("ispb", 12_345_678, "accountNumber", 2));
        assertThat(chosen.status()).as("%s", chosen).isEqualTo(201);
        assertThat(bank.post("/accounts", Map.of("ispb", 12_345_678, "accountNumber", 2))
                        .status())
                .isEqualTo(200);

        Http.Response first = bank.post("/accounts", Map.of("ispb", 12_345_678));
        Http.Response second = bank.post("/accounts", Map.of("ispb", 12_345_678));
        assertThat(first.status()).isEqualTo(201);
        assertThat(second.status()).isEqualTo(201);
        // Allocated numbers are drawn at random, far above chosen ones (AccountEnumerationTest).
        long firstNumber = first.json().path("accountNumber").asLong();
        assertThat(firstNumber).isGreaterThan(2);
        assertThat(second.json().path("accountNumber").asLong()).isNotIn(2L, firstNumber);
        customerA = first.json().path("accountId").asString();
        customerB = chosen.json().path("accountId").asString();
        assertThat(customerA)
                .isEqualTo(ChartOfAccounts.customer(new BankId(12_345_678), firstNumber)
                        .toString());
        assertThat(first.json().path("ispb").asInt()).isEqualTo(12_345_678);
        touched.add(Id128.parse(customerA));
        touched.add(Id128.parse(customerB));
        touched.add(Id128.parse(second.json().path("accountId").asString()));

        assertProblem(participants.bank(99).post("/accounts", Map.of("ispb", 99)), 422, "unknown-bank");
        assertProblem(bank.post("/accounts", Map.of("ispb", 12_345_678, "accountNumber", 0)), 400, "invalid-field");
        assertProblem(bank.post("/accounts", Map.of("ispb", 12_345_678, "accountNumber", "7")), 400, "invalid-field");
        assertProblem(bank.post("/accounts", Map.of()), 400, "missing-field");
    }

    @Test
    @Order(4)
    void reserveFundingsAreIdempotentPerKey() {
        String path = "/banks/12345678/reserve-fundings";
        Http.Response funded =
                operator.post(path, Map.of("amountCentavos", 5_000_000_00L), "Idempotency-Key", "reserve-1");
        assertThat(funded.status()).as("%s", funded).isEqualTo(201);
        assertThat(funded.header("Idempotent-Replayed")).isEqualTo("false");
        Http.Response again =
                operator.post(path, Map.of("amountCentavos", 5_000_000_00L), "Idempotency-Key", "reserve-1");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(again.json().path("transferId").asString())
                .isEqualTo(funded.json().path("transferId").asString());
        assertProblem(
                operator.post(path, Map.of("amountCentavos", 1), "Idempotency-Key", "reserve-1"),
                422,
                "idempotency-key-reused");
        assertThat(balanceOf(ChartOfAccounts.reserve(new BankId(12_345_678)).toString())
                        .path("balanceCentavos")
                        .asLong())
                .as("funded once")
                .isEqualTo(5_000_000_00L);

        // Unknown bank: refused without burning the key; once registered, the same key funds it.
        assertProblem(
                operator.post("/banks/777/reserve-fundings", Map.of("amountCentavos", 100), "Idempotency-Key", "late"),
                422,
                "unknown-bank");
        assertThat(operator.post("/banks", Map.of("ispb", 777, "name", "Banco Tardio"))
                        .status())
                .isEqualTo(201);
        touched.add(ChartOfAccounts.reserve(new BankId(777)));
        touched.add(ChartOfAccounts.transit(new BankId(777)));
        assertThat(operator.post(
                                "/banks/777/reserve-fundings", Map.of("amountCentavos", 100), "Idempotency-Key", "late")
                        .status())
                .isEqualTo(201);

        assertProblem(operator.post(path, Map.of("amountCentavos", 100)), 400, "missing-idempotency-key");
        assertProblem(
                operator.post(path, Map.of("amountCentavos", 0), "Idempotency-Key", "zero"), 422, "invalid-amount");
        assertProblem(
                operator.post(path, Map.of("amountCentavos", "100"), "Idempotency-Key", "string"),
                400,
                "invalid-field");
        assertProblem(
                operator.post("/banks/abc/reserve-fundings", Map.of("amountCentavos", 100), "Idempotency-Key", "x"),
                400,
                "invalid-field");
    }

    @Test
    @Order(5)
    void customerFundingsAreIdempotentPerKey() {
        String path = "/accounts/" + customerA + "/fundings";
        Http.Response funded = bank.post(path, Map.of("amountCentavos", 250_00), "Idempotency-Key", "salary-march");
        assertThat(funded.status()).as("%s", funded).isEqualTo(201);
        Http.Response again = bank.post(path, Map.of("amountCentavos", 250_00), "Idempotency-Key", "salary-march");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("transferId").asString())
                .isEqualTo(funded.json().path("transferId").asString());
        assertProblem(
                bank.post(path, Map.of("amountCentavos", 999_00), "Idempotency-Key", "salary-march"),
                422,
                "idempotency-key-reused");
        // The same key for another account is another funding.
        assertThat(bank.post(
                                "/accounts/" + customerB + "/fundings",
                                Map.of("amountCentavos", 40_00),
                                "Idempotency-Key",
                                "salary-march")
                        .status())
                .isEqualTo(201);
        assertThat(bank.post(path, Map.of("amountCentavos", 10_00), "Idempotency-Key", "bonus")
                        .status())
                .isEqualTo(201);

        assertProblem(
                bank.post(
                        "/accounts/" + ChartOfAccounts.customer(new BankId(12_345_678), 55_555) + "/fundings",
                        Map.of("amountCentavos", 1),
                        "Idempotency-Key",
                        "ghost"),
                404,
                "account-not-found");
        assertProblem(
                bank.post(
                        "/accounts/" + ChartOfAccounts.reserve(new BankId(12_345_678)) + "/fundings",
                        Map.of("amountCentavos", 1),
                        "Idempotency-Key",
                        "bank"),
                422,
                "not-a-customer-account");
        assertProblem(
                bank.post("/accounts/xyz/fundings", Map.of("amountCentavos", 1), "Idempotency-Key", "bad"),
                400,
                "invalid-account-id");
    }

    @Test
    @Order(6)
    void balancesAreTheLedgersAndTheMoneyInvariantsHold() {
        JsonNode a = balanceOf(customerA);
        assertThat(a.path("kind").asString()).isEqualTo("CUSTOMER");
        assertThat(a.path("postedCreditsCentavos").asLong()).isEqualTo(260_00);
        assertThat(a.path("postedDebitsCentavos").asLong()).isZero();
        assertThat(a.path("pendingDebitsCentavos").asLong()).isZero();
        assertThat(a.path("pendingCreditsCentavos").asLong()).isZero();
        assertThat(a.path("balanceCentavos").asLong()).isEqualTo(260_00);
        assertThat(a.path("availableCentavos").asLong()).isEqualTo(260_00);
        assertThat(balanceOf(customerB).path("balanceCentavos").asLong()).isEqualTo(40_00);

        JsonNode transit =
                balanceOf(ChartOfAccounts.transit(new BankId(12_345_678)).toString());
        assertThat(transit.path("kind").asString()).isEqualTo("TRANSIT");
        assertThat(transit.path("postedDebitsCentavos").asLong())
                .as("the bank funded its customers")
                .isEqualTo(300_00);

        for (Account account : MoneyInvariants.check(ledger, touched)) {
            JsonNode read = balanceOf(account.id().toString());
            assertThat(read.path("postedCreditsCentavos").asLong()).isEqualTo(account.creditsPosted());
            assertThat(read.path("postedDebitsCentavos").asLong()).isEqualTo(account.debitsPosted());
            assertThat(read.path("pendingDebitsCentavos").asLong()).isEqualTo(account.debitsPending());
            assertThat(read.path("pendingCreditsCentavos").asLong()).isEqualTo(account.creditsPending());
        }
        assertThat(balanceOf(ChartOfAccounts.centralBank().toString())
                        .path("postedDebitsCentavos")
                        .asLong())
                .as("the issuer created exactly the reserves' money")
                .isEqualTo(5_000_000_00L + 100);
    }

    @Test
    @Order(7)
    void aBankReadsBackAsItWasRegistered() {
        Http.Response read = operator.get("/banks/12345678");
        assertThat(read.status()).as("%s", read).isEqualTo(200);
        assertThat(read.json())
                .as("what POST /banks answered")
                .isEqualTo(operator.post("/banks", Map.of("ispb", 12_345_678, "name", "Banco Exemplo S.A."))
                        .json());
        assertThat(bank.get("/banks/12345678").json())
                .as("the bank reads itself")
                .isEqualTo(read.json());
        assertThat(operator.get("/banks/00000777").json().path("name").asString())
                .isEqualTo("Banco Tardio");

        assertProblem(operator.get("/banks/4242"), 404, "bank-not-found");
        assertProblem(operator.get("/banks/123456789"), 400, "invalid-field");
        assertProblem(operator.get("/banks/abc"), 400, "invalid-field");
    }

    @Test
    @Order(8)
    void anAccountOpenedWithAnIdempotencyKeyIsOpenedOnceAndReplayed() {
        Http.Response first = bank.post("/accounts", Map.of("ispb", 12_345_678), "Idempotency-Key", "open-ana");
        assertThat(first.status()).as("%s", first).isEqualTo(201);
        assertThat(first.header("Idempotent-Replayed")).isEqualTo("false");
        long number = first.json().path("accountNumber").asLong();
        assertThat(number).as("drawn").isGreaterThanOrEqualTo(RandomAccountNumbers.FLOOR);

        Http.Response again = bank.post("/accounts", Map.of("ispb", 12_345_678), "Idempotency-Key", "open-ana");
        assertThat(again.status()).as("%s: a lost answer retried", again).isEqualTo(200);
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(again.json()).isEqualTo(first.json());

        Http.Response other = bank.post("/accounts", Map.of("ispb", 12_345_678), "Idempotency-Key", "open-bia");
        assertThat(other.status()).as("another key, another account").isEqualTo(201);
        assertThat(other.json().path("accountNumber").asLong()).isNotEqualTo(number);

        assertProblem(
                bank.post("/accounts", Map.of("ispb", 12_345_678, "accountNumber", 3), "Idempotency-Key", "open-ana"),
                422,
                "idempotency-key-reused");
        assertThat(ledger.lookupAccounts(List.of(ChartOfAccounts.customer(new BankId(12_345_678), 3))))
                .as("a reused key opens nothing")
                .isEmpty();

        Http.Response chosen =
                bank.post("/accounts", Map.of("ispb", 12_345_678, "accountNumber", 4), "Idempotency-Key", "open-four");
        assertThat(chosen.status()).isEqualTo(201);
        assertThat(bank.post(
                                "/accounts",
                                Map.of("ispb", 12_345_678, "accountNumber", 4),
                                "Idempotency-Key",
                                "open-four")
                        .header("Idempotent-Replayed"))
                .isEqualTo("true");

        // Keys are each participant's own: bank 777's "open-ana" is its own account, at its own bank.
        Http.Response elsewhere =
                participants.bank(777).post("/accounts", Map.of("ispb", 777), "Idempotency-Key", "open-ana");
        assertThat(elsewhere.status()).as("%s", elsewhere).isEqualTo(201);
        assertThat(elsewhere.json().path("ispb").asInt()).isEqualTo(777);

        assertProblem(
                bank.post("/accounts", Map.of("ispb", 12_345_678), "Idempotency-Key", "two words"),
                400,
                "invalid-idempotency-key");
    }

    private JsonNode balanceOf(String accountId) {
        Http.Response response = participants.holderOf(accountId).get("/accounts/" + accountId + "/balance");
        assertThat(response.status()).as("%s", response).isEqualTo(200);
        return response.json();
    }
}
