package io.pagora.payments.api.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.testing.ledger.MoneyInvariants;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.testing.Http;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Sets participants up through payment-api's own HTTP administration endpoints (as a user would),
 * and remembers every ledger account it touched, for {@link MoneyInvariants}.
 */
public final class Participants {

    private final Http http;
    private final Set<Id128> accounts = new LinkedHashSet<>(List.of(ChartOfAccounts.centralBank()));

    public Participants(Http http) {
        this.http = http;
    }

    public void registerBank(int ispb, String name) {
        Http.Response response = http.post("/banks", Map.of("ispb", ispb, "name", name));
        assertThat(response.status()).as("%s", response).isIn(200, 201);
        accounts.add(Id128.parse(response.json().path("reserveAccountId").asString()));
        accounts.add(Id128.parse(response.json().path("transitAccountId").asString()));
    }

    public String openAccount(int ispb) {
        Http.Response response = http.post("/accounts", Map.of("ispb", ispb));
        assertThat(response.status()).as("%s", response).isEqualTo(201);
        String id = response.json().path("accountId").asString();
        accounts.add(Id128.parse(id));
        return id;
    }

    public void fundReserve(int ispb, long amountCentavos) {
        Http.Response response = http.post("/banks/" + ispb + "/reserve-fundings", Map.of("amountCentavos", amountCentavos),
                "Idempotency-Key", UUID.randomUUID().toString());
        assertThat(response.status()).as("%s", response).isEqualTo(201);
    }

    public void fundCustomer(String accountId, long amountCentavos) {
        Http.Response response = http.post("/accounts/" + accountId + "/fundings", Map.of("amountCentavos", amountCentavos),
                "Idempotency-Key", UUID.randomUUID().toString());
        assertThat(response.status()).as("%s", response).isEqualTo(201);
    }

    public long balance(String accountId) {
        Http.Response response = http.get("/accounts/" + accountId + "/balance");
        assertThat(response.status()).as("%s", response).isEqualTo(200);
        return response.json().path("balanceCentavos").asLong();
    }

    public Set<Id128> accounts() {
        return accounts;
    }
}
