package io.pagora.clearing.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.TransferResult;
import io.pagora.settlement.application.Participants;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.invariants.Movement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A small PIX world in a fresh ledger: the central bank, two participant banks (A and B) with funded
 * reserves, and customers at each with funded accounts. Every funding transfer is remembered, so
 * {@link Books} can compute every account's expected balances from funding plus settled payments.
 */
public final class PixWorld {

    public static final BankId BANK_A = new BankId(11_111_111);
    public static final BankId BANK_B = new BankId(22_222_222);

    private final Ledger ledger;
    private final Participants participants;
    private final TimeOrderedIds ids = new TimeOrderedIds();
    private final Set<Id128> accounts = new LinkedHashSet<>();
    private final List<Movement> funding = new ArrayList<>();

    public PixWorld(Ledger ledger) {
        this.ledger = ledger;
        this.participants = new Participants(ledger);
        assertThat(participants.openCentralBank().isSuccess()).isTrue();
        accounts.add(ChartOfAccounts.centralBank());
        for (BankId bank : List.of(BANK_A, BANK_B)) {
            assertThat(participants.registerBank(bank)).allMatch(AccountResult::isSuccess);
            accounts.add(ChartOfAccounts.reserve(bank));
            accounts.add(ChartOfAccounts.transit(bank));
        }
    }

    public Ledger ledger() {
        return ledger;
    }

    /** Central bank → the bank's reserve. */
    public PixWorld fundReserve(BankId bank, long amountCentavos) {
        assertThat(participants.fundReserve(ids.next(), bank, amountCentavos)).isEqualTo(TransferResult.OK);
        funding.add(new Movement(ChartOfAccounts.centralBank(), ChartOfAccounts.reserve(bank), amountCentavos));
        return this;
    }

    /** Opens customers {@code first..first+count-1} at {@code bank}, each funded with {@code balanceCentavos} (0: none). */
    public List<Id128> openCustomers(BankId bank, long first, int count, long balanceCentavos) {
        List<Long> numbers = new ArrayList<>();
        for (long number = first; number < first + count; number++) {
            numbers.add(number);
        }
        assertThat(participants.openCustomers(bank, numbers)).allMatch(AccountResult::isSuccess);
        List<Id128> customers = new ArrayList<>();
        for (long number : numbers) {
            Id128 customer = ChartOfAccounts.customer(bank, number);
            customers.add(customer);
            accounts.add(customer);
            if (balanceCentavos > 0) {
                fundCustomer(customer, balanceCentavos);
            }
        }
        return customers;
    }

    /** Both reserves funded, then customers {@code 1..perBank} at bank A and at bank B, each funded: A's first. */
    public List<Id128> fundedCustomersAtBothBanks(long reserveCentavos, int perBank, long balanceCentavos) {
        fundReserve(BANK_A, reserveCentavos).fundReserve(BANK_B, reserveCentavos);
        List<Id128> customers = new ArrayList<>(openCustomers(BANK_A, 1, perBank, balanceCentavos));
        customers.addAll(openCustomers(BANK_B, 1, perBank, balanceCentavos));
        return customers;
    }

    /** Customers 1..n of bank A and of bank B, in the same order. */
    public record Pairs(List<Id128> atA, List<Id128> atB) {}

    /** Both reserves funded with 1,000,000.00, then customers {@code 1..perBank} at each bank, each holding {@code balanceCentavos}. */
    public Pairs customerPairs(int perBank, long balanceCentavos) {
        fundReserve(BANK_A, 1_000_000_00).fundReserve(BANK_B, 1_000_000_00);
        return new Pairs(
                openCustomers(BANK_A, 1, perBank, balanceCentavos), openCustomers(BANK_B, 1, perBank, balanceCentavos));
    }

    /**
     * For each pair i: an interbank payment A_i → B_i of {@code interbankCentavos}, then an on-us payment between
     * neighbours at one bank (customers_i → customers_i+1, the last to the first) of {@code onUsCentavos}.
     */
    public List<PaymentRequested> interbankThenOnUs(
            Pairs pairs, long interbankCentavos, List<Id128> onUsBank, long onUsCentavos) {
        List<PaymentRequested> payments = new ArrayList<>();
        for (int i = 0; i < pairs.atA().size(); i++) {
            payments.add(payment(pairs.atA().get(i), pairs.atB().get(i), interbankCentavos));
            payments.add(payment(onUsBank.get(i), onUsBank.get((i + 1) % onUsBank.size()), onUsCentavos));
        }
        return payments;
    }

    /** {@code count} payments, each between two different customers drawn from {@code seed}, of 1 to {@code amountMaxCentavos}. */
    public List<PaymentRequested> randomPayments(List<Id128> customers, int count, long seed, int amountMaxCentavos) {
        SplittableRandom random = new SplittableRandom(seed);
        List<PaymentRequested> payments = new ArrayList<>();
        while (payments.size() < count) {
            Id128 payer = customers.get(random.nextInt(customers.size()));
            Id128 payee = customers.get(random.nextInt(customers.size()));
            if (!payer.equals(payee)) {
                payments.add(payment(payer, payee, 1 + random.nextInt(amountMaxCentavos)));
            }
        }
        return payments;
    }

    /** The customer's bank transit → the customer. */
    public void fundCustomer(Id128 customer, long amountCentavos) {
        assertThat(participants.fundCustomer(ids.next(), customer, amountCentavos))
                .isEqualTo(TransferResult.OK);
        BankId bank = ChartOfAccounts.bankOf(customer).orElseThrow();
        funding.add(new Movement(ChartOfAccounts.transit(bank), customer, amountCentavos));
    }

    /** A new payment request, as payment-api would publish it. */
    public PaymentRequested payment(Id128 payer, Id128 payee, long amountCentavos) {
        String id = ids.nextPaymentId().toString();
        return new PaymentRequested(
                id,
                payer.toString(),
                payee.toString(),
                amountCentavos,
                "BRL",
                "test payment",
                // A PIX id (E, an ISPB, a minute, 11 letters or digits) unique per payment: its id's last 11 digits.
                "E10001111202611290000" + id.substring(id.length() - 11),
                Instant.now());
    }

    /** Every account of this world: the closed set the money invariants are checked over. */
    public Set<Id128> accounts() {
        return Set.copyOf(accounts);
    }

    public List<Movement> funding() {
        return List.copyOf(funding);
    }
}
