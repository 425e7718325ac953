package io.pagora.payments.api.application.intake;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Ledger;
import io.pagora.payments.api.domain.PaymentRules.AccountStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Answers "does this customer account exist?" from the ledger, the authority, remembering the
 * accounts known to exist. Accounts are never deleted and never change kind, so a positive answer
 * stays true forever; negative answers are never cached (the account may be opened a moment later).
 * The memory is bounded: least recently used ids are forgotten first.
 */
public final class AccountDirectory {

    private final Ledger ledger;
    private final Map<Id128, Boolean> knownCustomers;

    public AccountDirectory(Ledger ledger, int cachedAccountsMax) {
        Check.that(cachedAccountsMax > 0, "cachedAccountsMax must be positive: %d", cachedAccountsMax);
        this.ledger = ledger;
        this.knownCustomers = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Id128, Boolean> eldest) {
                return size() > cachedAccountsMax;
            }
        };
    }

    /** The status of every id, with at most one ledger request per {@link Ledger#BATCH_SIZE_MAX} unknown ids. */
    public Map<Id128, AccountStatus> statusOf(Collection<Id128> ids) {
        Map<Id128, AccountStatus> statuses = new HashMap<>(ids.size() * 2);
        List<Id128> unknown = new ArrayList<>();
        synchronized (knownCustomers) {
            for (Id128 id : new LinkedHashSet<>(ids)) {
                if (knownCustomers.get(id) != null) {
                    statuses.put(id, AccountStatus.CUSTOMER);
                } else {
                    unknown.add(id);
                }
            }
        }
        for (int from = 0; from < unknown.size(); from += Ledger.BATCH_SIZE_MAX) {
            List<Id128> chunk = unknown.subList(from, Math.min(unknown.size(), from + Ledger.BATCH_SIZE_MAX));
            Map<Id128, Account> found = new HashMap<>();
            for (Account account : ledger.lookupAccounts(chunk)) {
                found.put(account.id(), account);
            }
            List<Id128> customers = new ArrayList<>();
            for (Id128 id : chunk) {
                AccountStatus status = AccountStatus.of(found.get(id));
                statuses.put(id, status);
                if (status == AccountStatus.CUSTOMER) {
                    customers.add(id);
                }
            }
            remember(customers);
        }
        Set<Id128> answered = statuses.keySet();
        Check.that(answered.size() == new LinkedHashSet<>(ids).size(), "one status per id");
        return statuses;
    }

    /** Records accounts this process just saw created (saves a lookup on their first payment). */
    public void remember(Collection<Id128> customers) {
        synchronized (knownCustomers) {
            for (Id128 id : customers) {
                knownCustomers.put(id, Boolean.TRUE);
            }
        }
    }

    public int cachedCount() {
        synchronized (knownCustomers) {
            return knownCustomers.size();
        }
    }
}
