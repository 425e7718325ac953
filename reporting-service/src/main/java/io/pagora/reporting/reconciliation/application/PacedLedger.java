package io.pagora.reporting.reconciliation.application;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.Transfer;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ledger reads both checks make, each request paced by the one {@link Pacer} they share: together they never
 * send the ledger more than {@code ledgerRequestsPerSecondMax} requests a second. Not thread-safe.
 */
final class PacedLedger {

    private final Ledger ledger;
    private final Pacer pacer;

    PacedLedger(Ledger ledger, int requestsPerSecondMax) {
        this.ledger = ledger;
        this.pacer = new Pacer(requestsPerSecondMax);
    }

    /** One request: the transfers among {@code ids} the ledger holds, by id. */
    Map<Id128, Transfer> lookupTransfers(List<Id128> ids) {
        pacer.awaitSlot();
        Map<Id128, Transfer> found = new LinkedHashMap<>();
        for (Transfer transfer : ledger.lookupTransfers(List.copyOf(ids))) {
            found.put(transfer.id(), transfer);
        }
        return found;
    }

    /** The accounts among {@code ids} the ledger holds, by id, in requests of at most a ledger batch each. */
    Map<Id128, Account> lookupAccounts(List<Id128> ids) {
        Map<Id128, Account> found = new LinkedHashMap<>();
        for (int from = 0; from < ids.size(); from += Ledger.BATCH_SIZE_MAX) {
            pacer.awaitSlot();
            List<Id128> batch = List.copyOf(ids.subList(from, Math.min(ids.size(), from + Ledger.BATCH_SIZE_MAX)));
            for (Account account : ledger.lookupAccounts(batch)) {
                found.put(account.id(), account);
            }
        }
        return found;
    }

    /** One request: the ledger's accounts created after {@code timestampAfter}, oldest first, at most {@code limit}. */
    List<Account> accountsAfter(long timestampAfter, int limit) {
        pacer.awaitSlot();
        List<Account> page = ledger.queryAccounts(ChartOfAccounts.LEDGER_BRL, timestampAfter, limit);
        Check.that(page.size() <= limit, "the ledger answered %d accounts", page.size());
        return page;
    }
}
