package io.pagora.ledger.adapter.postgres;

import io.pagora.ledger.domain.Account;
import io.pagora.ledger.domain.AccountResult;
import io.pagora.ledger.domain.Id128;
import io.pagora.ledger.domain.Ledger;
import io.pagora.ledger.domain.NewAccount;
import io.pagora.ledger.domain.NewTransfer;
import io.pagora.ledger.domain.Transfer;
import io.pagora.ledger.domain.TransferResult;
import java.util.List;
import javax.sql.DataSource;

/** PLACEHOLDER being written: the PostgreSQL ledger. */
public final class PostgresLedger implements Ledger {

    /** Runs the Flyway migrations of the ledger schema, then opens the ledger on {@code dataSource}. */
    public static PostgresLedger migrateAndOpen(DataSource dataSource) {
        throw new UnsupportedOperationException("in progress");
    }

    /** Marks at most {@code transfersMax} due pending transfers expired and releases their reservations. */
    public int sweepExpired(int transfersMax) {
        throw new UnsupportedOperationException("in progress");
    }

    @Override public List<AccountResult> createAccounts(List<NewAccount> accounts) { throw new UnsupportedOperationException(); }
    @Override public List<TransferResult> createTransfers(List<NewTransfer> transfers) { throw new UnsupportedOperationException(); }
    @Override public List<Account> lookupAccounts(List<Id128> ids) { throw new UnsupportedOperationException(); }
    @Override public List<Transfer> lookupTransfers(List<Id128> ids) { throw new UnsupportedOperationException(); }
    @Override public String backendName() { return "postgresql"; }
    @Override public void close() {}
}
