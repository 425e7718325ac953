package io.pagora.ledger.port;

import io.pagora.kernel.Id128;
import java.util.List;
import java.util.Objects;

/**
 * A ledger that passes every call to another, unchanged: the base of the decorators (metering, fault
 * injection, a test server's death watch), which override only the calls they add to. A decorator
 * never changes an answer, so the port's semantics hold through any number of them.
 */
public abstract class ForwardingLedger implements Ledger {

    protected final Ledger delegate;

    protected ForwardingLedger(Ledger delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The ledger this one forwards to. */
    public Ledger delegate() {
        return delegate;
    }

    @Override
    public List<AccountResult> createAccounts(List<NewAccount> accounts) {
        return delegate.createAccounts(accounts);
    }

    @Override
    public List<TransferResult> createTransfers(List<NewTransfer> transfers) {
        return delegate.createTransfers(transfers);
    }

    @Override
    public List<Account> lookupAccounts(List<Id128> ids) {
        return delegate.lookupAccounts(ids);
    }

    @Override
    public List<Transfer> lookupTransfers(List<Id128> ids) {
        return delegate.lookupTransfers(ids);
    }

    @Override
    public List<Account> queryAccounts(int ledger, long timestampAfter, int limit) {
        return delegate.queryAccounts(ledger, timestampAfter, limit);
    }

    @Override
    public List<Transfer> accountTransfers(Id128 account, Sides sides, long timestampAfter, int limit) {
        return delegate.accountTransfers(account, sides, timestampAfter, limit);
    }

    @Override
    public String backendName() {
        return delegate.backendName();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
