package io.pagora.settlement.application;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.TransferResult;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.TransferCode;
import java.util.ArrayList;
import java.util.List;

/**
 * Sets up the chart of accounts: the central bank, participant banks, customer accounts, and their
 * funding. Funding is always a transfer (central bank → reserve, bank transit → customer), never an
 * edit of a balance, so the ledger sums to zero at all times. Every call is idempotent per id.
 */
public final class Participants {

    private final Ledger ledger;

    public Participants(Ledger ledger) {
        this.ledger = ledger;
    }

    public AccountResult openCentralBank() {
        return ledger.createAccounts(List.of(ChartOfAccounts.centralBankAccount()))
                .getFirst();
    }

    /** Creates the bank's reserve and transit accounts as one linked chain. Results in that order. */
    public List<AccountResult> registerBank(BankId bank) {
        return ledger.createAccounts(ChartOfAccounts.bankAccounts(bank));
    }

    public List<AccountResult> openCustomers(BankId bank, List<Long> accountNumbers) {
        List<NewAccount> accounts = new ArrayList<>(accountNumbers.size());
        for (long number : accountNumbers) {
            accounts.add(ChartOfAccounts.customerAccount(bank, number));
        }
        return ledger.createAccounts(accounts);
    }

    /** Central bank → the bank's reserve. {@code transferId} makes a retried funding idempotent. */
    public TransferResult fundReserve(Id128 transferId, BankId bank, long amountCentavos) {
        return ledger.createTransfers(List.of(NewTransfer.posted(
                        transferId,
                        ChartOfAccounts.centralBank(),
                        ChartOfAccounts.reserve(bank),
                        amountCentavos,
                        ChartOfAccounts.LEDGER_BRL,
                        TransferCode.RESERVE_FUNDING,
                        Id128.ZERO)))
                .getFirst();
    }

    /** The customer's bank (its transit account) → the customer. */
    public TransferResult fundCustomer(Id128 transferId, Id128 customer, long amountCentavos) {
        BankId bank = ChartOfAccounts.bankOf(customer)
                .orElseThrow(() -> new IllegalArgumentException("not a customer account: " + customer));
        return ledger.createTransfers(List.of(NewTransfer.posted(
                        transferId,
                        ChartOfAccounts.transit(bank),
                        customer,
                        amountCentavos,
                        ChartOfAccounts.LEDGER_BRL,
                        TransferCode.CUSTOMER_FUNDING,
                        Id128.ZERO)))
                .getFirst();
    }
}
