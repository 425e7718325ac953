package io.pagora.testing;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.TransferResult;
import java.util.List;
import java.util.function.Supplier;

/**
 * A TigerBeetle ledger client on a test server that knows whether the server died: once it has, every
 * call fails at once with {@link TigerBeetleServer.DiedException} (the server's exit code and log tail),
 * and so does a call that was blocked when it died (the server closes the client, which releases it).
 * Otherwise it is the adapter itself: same answers, same failures.
 */
final class WatchedLedger implements Ledger {

    private final TigerBeetleServer server;
    private final Ledger delegate;

    WatchedLedger(TigerBeetleServer server, Ledger delegate) {
        this.server = server;
        this.delegate = delegate;
    }

    @Override
    public List<AccountResult> createAccounts(List<NewAccount> accounts) {
        return call(() -> delegate.createAccounts(accounts));
    }

    @Override
    public List<TransferResult> createTransfers(List<NewTransfer> transfers) {
        return call(() -> delegate.createTransfers(transfers));
    }

    @Override
    public List<Account> lookupAccounts(List<Id128> ids) {
        return call(() -> delegate.lookupAccounts(ids));
    }

    @Override
    public List<Transfer> lookupTransfers(List<Id128> ids) {
        return call(() -> delegate.lookupTransfers(ids));
    }

    @Override
    public List<Account> queryAccounts(int ledger, long timestampAfter, int limit) {
        return call(() -> delegate.queryAccounts(ledger, timestampAfter, limit));
    }

    @Override
    public List<Transfer> accountTransfers(Id128 account, Sides sides, long timestampAfter, int limit) {
        return call(() -> delegate.accountTransfers(account, sides, timestampAfter, limit));
    }

    @Override
    public String backendName() {
        return delegate.backendName();
    }

    @Override
    public void close() {
        server.forget(delegate);
        delegate.close();
    }

    private <T> T call(Supplier<T> operation) {
        server.requireAlive(null);
        try {
            return operation.get();
        } catch (RuntimeException failure) {
            throw server.explain(failure);
        }
    }
}
