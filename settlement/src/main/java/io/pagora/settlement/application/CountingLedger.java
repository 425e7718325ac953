package io.pagora.settlement.application;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.ForwardingLedger;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferResult;
import java.util.List;

/** Counts the requests a filing makes: the bound docs/med.md states. */
final class CountingLedger extends ForwardingLedger {
    private final int[] requests;

    CountingLedger(Ledger delegate, int[] requests) {
        super(delegate);
        this.requests = requests;
    }

    @Override
    public List<AccountResult> createAccounts(List<NewAccount> accounts) {
        requests[0]++;
        return super.createAccounts(accounts);
    }

    @Override
    public List<TransferResult> createTransfers(List<NewTransfer> transfers) {
        requests[0]++;
        return super.createTransfers(transfers);
    }

    @Override
    public List<Account> lookupAccounts(List<Id128> ids) {
        requests[0]++;
        return super.lookupAccounts(ids);
    }

    @Override
    public List<Transfer> lookupTransfers(List<Id128> ids) {
        requests[0]++;
        return super.lookupTransfers(ids);
    }

    @Override
    public List<Transfer> accountTransfers(Id128 account, Sides sides, long timestampAfter, int limit) {
        requests[0]++;
        return super.accountTransfers(account, sides, timestampAfter, limit);
    }
}
