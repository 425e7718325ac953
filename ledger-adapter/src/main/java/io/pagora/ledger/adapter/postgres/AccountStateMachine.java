package io.pagora.ledger.adapter.postgres;

import static io.pagora.ledger.port.AccountResult.*;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountFlags;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.NewAccount;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** TigerBeetle 0.16.30's {@code create_accounts} for one batch, in memory; linked chains as for transfers. */
final class AccountStateMachine {

    private final Map<Id128, Account> existing;
    private final long batchTimestampNs;
    private final LinkedHashMap<Id128, Account> created = new LinkedHashMap<>();

    AccountStateMachine(Map<Id128, Account> existing, long batchTimestampNs) {
        this.existing = existing;
        this.batchTimestampNs = batchTimestampNs;
    }

    List<AccountResult> execute(List<NewAccount> events) {
        AccountResult[] results = new AccountResult[events.size()];
        List<Id128> scope = new ArrayList<>();
        int chainStart = -1;
        boolean chainBroken = false;
        for (int index = 0; index < events.size(); index++) {
            NewAccount event = events.get(index);
            boolean linked = event.linked();
            if (linked && chainStart < 0) {
                chainStart = index;
                scope.clear();
            }
            AccountResult result;
            if (linked && index == events.size() - 1) {
                result = LINKED_EVENT_CHAIN_OPEN;
            } else if (chainBroken) {
                result = LINKED_EVENT_FAILED;
            } else {
                result = createAccount(event, batchTimestampNs - events.size() + index + 1);
                if (result == OK) {
                    scope.add(event.id());
                }
            }
            results[index] = result;
            if (result != OK && chainStart >= 0 && !chainBroken) {
                chainBroken = true;
                scope.forEach(created::remove);
                for (int member = chainStart; member < index; member++) {
                    results[member] = LINKED_EVENT_FAILED;
                }
            }
            if (chainStart >= 0 && (!linked || result == LINKED_EVENT_CHAIN_OPEN)) {
                chainStart = -1;
                chainBroken = false;
            }
        }
        return List.of(results);
    }

    List<Account> createdAccounts() {
        return List.copyOf(created.values());
    }

    private AccountResult createAccount(NewAccount a, long timestampNs) {
        if (a.id().isZero()) return ID_MUST_NOT_BE_ZERO;
        if (a.id().isMax()) return ID_MUST_NOT_BE_INT_MAX;
        Account e = created.containsKey(a.id()) ? created.get(a.id()) : existing.get(a.id());
        if (e != null) return exists(a, e);
        if (AccountFlags.has(a.flags(), AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS)
                && AccountFlags.has(a.flags(), AccountFlags.CREDITS_MUST_NOT_EXCEED_DEBITS)) {
            return FLAGS_ARE_MUTUALLY_EXCLUSIVE;
        }
        if (a.ledger() == 0) return LEDGER_MUST_NOT_BE_ZERO;
        if (a.code() == 0) return CODE_MUST_NOT_BE_ZERO;
        created.put(
                a.id(),
                new Account(
                        a.id(),
                        a.ledger(),
                        a.code(),
                        a.flags(),
                        0,
                        0,
                        0,
                        0,
                        a.userData128(),
                        a.userData64(),
                        a.userData32(),
                        timestampNs));
        return OK;
    }

    private static AccountResult exists(NewAccount a, Account e) {
        if (a.flags() != e.flags()) return EXISTS_WITH_DIFFERENT_FLAGS;
        if (!a.userData128().equals(e.userData128())) return EXISTS_WITH_DIFFERENT_USER_DATA_128;
        if (a.userData64() != e.userData64()) return EXISTS_WITH_DIFFERENT_USER_DATA_64;
        if (a.userData32() != e.userData32()) return EXISTS_WITH_DIFFERENT_USER_DATA_32;
        if (a.ledger() != e.ledger()) return EXISTS_WITH_DIFFERENT_LEDGER;
        if (a.code() != e.code()) return EXISTS_WITH_DIFFERENT_CODE;
        return EXISTS;
    }
}
