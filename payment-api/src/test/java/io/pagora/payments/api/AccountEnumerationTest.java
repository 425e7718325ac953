package io.pagora.payments.api;

import static io.pagora.payments.api.PaymentValidationTest.assertProblem;
import static io.pagora.payments.api.PaymentValidationTest.payment;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.testing.Http;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A bank cannot list which accounts exist at other banks. Allocated account numbers are
 * drawn at random from a space far larger than any bank's customers (guessing one is hopeless), numbers a
 * bank chose itself never make an allocation fail, and the answers that reveal whether another bank's account
 * exists ({@code 422 unknown-account} for a payee) are rate-limited per participant: over the limit, every
 * payment of that participant to another bank's customer is answered {@code 429} whether the payee exists
 * or not, so the refusal itself reveals nothing.
 */
@TestPropertySource(
        properties = {
            "pagora.payments.unknown-account-limit.burst=3",
            "pagora.payments.unknown-account-limit.refill-per-second=0.001"
        })
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AccountEnumerationTest extends PaymentApiIntegrationTest {

    static final int SEEDED = 10_001_111;
    static final int OTHER = 20_002_222;
    static final int THIRD = 30_003_333;

    Participants participants;

    @BeforeAll
    void setUp() {
        participants = new Participants(port);
        participants.registerBank(SEEDED, "Banco Semeado");
        participants.registerBank(OTHER, "Banco Outro");
        participants.registerBank(THIRD, "Banco Terceiro");
    }

    /** The demo seeds customers 1..50 with chosen numbers; docs/security.md's numberless opening must still work. */
    @Test
    @Order(1)
    void openingWithoutANumberSucceedsAfterFiftyChosenNumbers() {
        Http bank = participants.bank(SEEDED);
        for (int number = 1; number <= 50; number++) {
            Http.Response chosen = bank.post("/accounts", Map.of("ispb", SEEDED, "accountNumber", number));
            assertThat(chosen.status()).as("%s", chosen).isEqualTo(201);
        }
        Http.Response allocated = bank.post("/accounts", Map.of("ispb", SEEDED));
        assertThat(allocated.status()).as("%s", allocated).isEqualTo(201);
        assertThat(allocated.json().path("accountNumber").asLong()).isGreaterThan(50);
    }

    @Test
    @Order(2)
    void allocatedNumbersAreSpreadOverALargeSpace() {
        Http bank = participants.bank(SEEDED);
        List<Long> numbers = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            Http.Response allocated = bank.post("/accounts", Map.of("ispb", SEEDED));
            assertThat(allocated.status()).as("%s", allocated).isEqualTo(201);
            long number = allocated.json().path("accountNumber").asLong();
            assertThat(allocated.json().path("accountId").asString())
                    .isEqualTo(
                            ChartOfAccounts.customer(new BankId(SEEDED), number).toString());
            numbers.add(number);
        }
        assertThat(new HashSet<>(numbers)).hasSize(numbers.size());
        // Far above the numbers banks choose themselves, and exact in every JSON reader (JavaScript's 2^53).
        assertThat(numbers).allSatisfy(number -> assertThat(number).isBetween(1L << 40, (1L << 53) - 1));
        List<Long> sorted = numbers.stream().sorted().toList();
        long closest = Long.MAX_VALUE;
        for (int i = 1; i < sorted.size(); i++) {
            closest = Math.min(closest, sorted.get(i) - sorted.get(i - 1));
        }
        // A sequence (or any guessable order) would put neighbours 1 apart; 32 draws from 2^53 are ~2^48 apart.
        assertThat(closest).as("the closest two of %s", sorted).isGreaterThan(1_000_000L);
    }

    @Test
    @Order(3)
    void unknownAccountAnswersAreLimitedPerParticipant() {
        String payer = participants.openAccount(SEEDED);
        String ownPayee = participants.openAccount(SEEDED);
        String existingForeignPayee = participants.openAccount(OTHER);
        participants.fundCustomer(payer, 1_000_00);
        participants.fundReserve(SEEDED, 1_000_000_00L);
        Http bank = participants.bank(SEEDED);

        for (int probe = 1; probe <= 3; probe++) {
            assertProblem(pay(bank, payer, unknownAt(OTHER, probe)), 422, "unknown-account");
        }
        // Over the limit: the answer no longer depends on whether the payee exists.
        Http.Response limited = pay(bank, payer, unknownAt(OTHER, 4));
        assertProblem(limited, 429, "unknown-account-limit");
        // Retry-After is when a token is back (1 per 1,000 s here), not a constant, and the text says the same.
        long retryAfterSeconds = Long.parseLong(limited.header("Retry-After"));
        assertThat(retryAfterSeconds).as("%s", limited).isBetween(990L, 1_000L);
        assertThat(limited.json().path("detail").asString()).contains("for " + retryAfterSeconds + " s");
        assertProblem(pay(bank, payer, existingForeignPayee), 429, "unknown-account-limit");
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("idempotencyKey", UUID.randomUUID().toString());
        item.put("payerAccountId", payer);
        item.put("payeeAccountId", unknownAt(OTHER, 5));
        item.put("amountCentavos", 1);
        Http.Response batch = bank.post("/payments/batch", Map.of("payments", List.of(item)));
        assertThat(batch.status()).as("%s", batch).isEqualTo(200);
        JsonNode result = batch.json().path("results").get(0);
        assertThat(result.path("status").asString()).isEqualTo("REJECTED");
        assertThat(result.path("problem").path("type").asString()).endsWith("/unknown-account-limit");

        // Its own customers are no secret to a bank: paying them is not limited.
        assertThat(pay(bank, payer, ownPayee).status()).isEqualTo(202);
        // Another participant has its own allowance.
        String thirdPayer = participants.openAccount(THIRD);
        assertProblem(pay(participants.bank(THIRD), thirdPayer, unknownAt(OTHER, 6)), 422, "unknown-account");
    }

    private static String unknownAt(int ispb, long number) {
        return ChartOfAccounts.customer(new BankId(ispb), 7_000_000 + number).toString();
    }

    private static Http.Response pay(Http bank, String payer, String payee) {
        return bank.post(
                "/payments",
                payment(payer, payee, "1"),
                "Idempotency-Key",
                UUID.randomUUID().toString());
    }
}
