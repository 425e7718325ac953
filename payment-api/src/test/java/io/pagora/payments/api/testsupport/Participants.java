package io.pagora.payments.api.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.testing.Http;
import io.pagora.testing.TestCertificates;
import io.pagora.testing.ledger.MoneyInvariants;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sets participants up through payment-api's own HTTP administration endpoints (as a user would), each
 * request presenting the identity that may make it: the operator registers banks and funds reserves, a
 * bank opens, funds and reads its own customers' accounts. Remembers every ledger account it touched, for
 * {@link MoneyInvariants}, and hands out the clients of the test CA's identities ({@link TestCertificates}).
 */
public final class Participants {

    private final int port;
    private final Http operator;
    private final Map<Integer, Http> banks = new ConcurrentHashMap<>();
    private final Set<Id128> accounts = new LinkedHashSet<>(List.of(ChartOfAccounts.centralBank()));

    /** @param port the payment-api instance's HTTPS port */
    public Participants(int port) {
        this.port = port;
        this.operator = Http.as(TestCertificates.shared().operator(), port);
    }

    /** A client presenting the switch operator's certificate. */
    public Http operator() {
        return operator;
    }

    /** A client presenting bank {@code ispb}'s certificate (one per bank, reused). */
    public Http bank(int ispb) {
        return banks.computeIfAbsent(
                ispb, bank -> Http.as(TestCertificates.shared().bank(bank), port));
    }

    /** The client of whoever holds {@code accountId}: its bank, or the operator for the central bank's account. */
    public Http holderOf(String accountId) {
        Id128 account = Id128.parse(accountId);
        return ChartOfAccounts.bankOf(account).map(bank -> bank(bank.ispb())).orElse(operator);
    }

    public void registerBank(int ispb, String name) {
        Http.Response response = operator.post("/banks", Map.of("ispb", ispb, "name", name));
        assertThat(response.status()).as("%s", response).isIn(200, 201);
        accounts.add(Id128.parse(response.json().path("reserveAccountId").asString()));
        accounts.add(Id128.parse(response.json().path("transitAccountId").asString()));
    }

    public String openAccount(int ispb) {
        Http.Response response = bank(ispb).post("/accounts", Map.of("ispb", ispb));
        assertThat(response.status()).as("%s", response).isEqualTo(201);
        String id = response.json().path("accountId").asString();
        accounts.add(Id128.parse(id));
        return id;
    }

    public void fundReserve(int ispb, long amountCentavos) {
        Http.Response response = operator.post(
                "/banks/" + ispb + "/reserve-fundings",
                Map.of("amountCentavos", amountCentavos),
                "Idempotency-Key",
                UUID.randomUUID().toString());
        assertThat(response.status()).as("%s", response).isEqualTo(201);
    }

    public void fundCustomer(String accountId, long amountCentavos) {
        Http.Response response = holderOf(accountId)
                .post(
                        "/accounts/" + accountId + "/fundings",
                        Map.of("amountCentavos", amountCentavos),
                        "Idempotency-Key",
                        UUID.randomUUID().toString());
        assertThat(response.status()).as("%s", response).isEqualTo(201);
    }

    /** The account's balance as its holder reads it. */
    public long balance(String accountId) {
        Http.Response response = holderOf(accountId).get("/accounts/" + accountId + "/balance");
        assertThat(response.status()).as("%s", response).isEqualTo(200);
        return response.json().path("balanceCentavos").asLong();
    }

    public Set<Id128> accounts() {
        return accounts;
    }
}
