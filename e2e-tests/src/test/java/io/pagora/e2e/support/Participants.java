package io.pagora.e2e.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.invariants.Movement;
import io.pagora.testing.Http;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Sets participants up through payment-api's HTTP administration endpoints, each step by whoever may take it:
 * the operator registers banks and funds their reserves; a bank opens and funds its own customers' accounts.
 * Remembers what it did: every ledger account, and how much each reserve and customer was funded.
 */
public final class Participants {

    public record Bank(int ispb, Id128 reserve, Id128 transit) {}

    /** @param nearlyEmpty funded with almost nothing: its payments are refused for insufficient funds */
    public record Customer(Id128 id, int ispb, boolean nearlyEmpty) {}

    private final Service paymentApi;
    private final Map<Integer, Bank> banks = new LinkedHashMap<>();
    private final List<Customer> customers = new ArrayList<>();
    private final Map<Id128, Long> fundedCentavos = new LinkedHashMap<>();

    public Participants(Service paymentApi) {
        this.paymentApi = paymentApi;
    }

    public Bank registerBank(int ispb, String name) {
        Http.Response response = paymentApi.asOperator().post("/banks", Map.of("ispb", ispb, "name", name));
        assertThat(response.status()).as("register bank %d: %s", ispb, response).isEqualTo(201);
        Bank bank = new Bank(
                ispb,
                Id128.parse(response.json().path("reserveAccountId").asString()),
                Id128.parse(response.json().path("transitAccountId").asString()));
        assertThat(bank.reserve()).isEqualTo(ChartOfAccounts.reserve(new BankId(ispb)));
        assertThat(bank.transit()).isEqualTo(ChartOfAccounts.transit(new BankId(ispb)));
        banks.put(ispb, bank);
        return bank;
    }

    /** A new bank with a funded reserve, and one funded customer of it. */
    public Customer bankWithCustomer(int ispb, long reserveCentavos, long customerCentavos) {
        registerBank(ispb, "Banco " + ispb);
        fundReserve(ispb, reserveCentavos);
        Customer customer = openCustomer(ispb, false);
        fundCustomer(customer, customerCentavos);
        return customer;
    }

    public Customer openCustomer(int ispb, boolean nearlyEmpty) {
        Http.Response response = paymentApi.asBank(ispb).post("/accounts", Map.of("ispb", ispb));
        assertThat(response.status())
                .as("open an account at %d: %s", ispb, response)
                .isEqualTo(201);
        Customer customer =
                new Customer(Id128.parse(response.json().path("accountId").asString()), ispb, nearlyEmpty);
        customers.add(customer);
        return customer;
    }

    public void fundReserve(int ispb, long amountCentavos) {
        Http.Response response = paymentApi
                .asOperator()
                .post(
                        "/banks/" + ispb + "/reserve-fundings",
                        Map.of("amountCentavos", amountCentavos),
                        "Idempotency-Key",
                        UUID.randomUUID().toString());
        assertThat(response.status())
                .as("fund reserve of %d: %s", ispb, response)
                .isEqualTo(201);
        fundedCentavos.merge(banks.get(ispb).reserve(), amountCentavos, Long::sum);
    }

    public void fundCustomer(Customer customer, long amountCentavos) {
        Http.Response response = paymentApi
                .asBankOf(customer.id())
                .post(
                        "/accounts/" + customer.id() + "/fundings",
                        Map.of("amountCentavos", amountCentavos),
                        "Idempotency-Key",
                        UUID.randomUUID().toString());
        assertThat(response.status()).as("fund %s: %s", customer.id(), response).isEqualTo(201);
        fundedCentavos.merge(customer.id(), amountCentavos, Long::sum);
    }

    public List<Bank> banks() {
        return List.copyOf(banks.values());
    }

    public Bank bank(int ispb) {
        return banks.get(ispb);
    }

    public List<Customer> customers() {
        return List.copyOf(customers);
    }

    public Customer customer(Id128 id) {
        return customers.stream()
                .filter(customer -> customer.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    /** Every funding as a movement: the central bank issued each reserve's, a bank's transit paid its customers'. */
    public List<Movement> fundings() {
        List<Movement> fundings = new ArrayList<>();
        for (Bank bank : banks.values()) {
            fundings.add(new Movement(
                    ChartOfAccounts.centralBank(), bank.reserve(), fundedCentavos.getOrDefault(bank.reserve(), 0L)));
        }
        for (Customer customer : customers) {
            fundings.add(new Movement(
                    bank(customer.ispb()).transit(), customer.id(), fundedCentavos.getOrDefault(customer.id(), 0L)));
        }
        return fundings;
    }

    /** Every ledger account of the scenario: the central bank, each bank's reserve and transit, each customer. */
    public Set<Id128> allAccounts() {
        Set<Id128> accounts = new LinkedHashSet<>();
        accounts.add(ChartOfAccounts.centralBank());
        for (Bank bank : banks.values()) {
            accounts.add(bank.reserve());
            accounts.add(bank.transit());
        }
        customers.forEach(customer -> accounts.add(customer.id()));
        return accounts;
    }
}
