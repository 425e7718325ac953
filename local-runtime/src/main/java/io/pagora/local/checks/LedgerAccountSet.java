package io.pagora.local.checks;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.invariants.LedgerBooks;
import io.pagora.settlement.domain.AccountKind;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.invariants.PixBooks;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The ledger's own account set on the BRL ledger, walked in creation order with {@code query_accounts} a page at a
 * time: what {@code verify} and the demo report judge. No other source names every account: the accounts file
 * holds what seeding created, the read model only the customers a payment names, so a customer opened and funded
 * by any client and never in a payment is found here alone (else its funding shows as a transit debit nothing
 * explains).
 *
 * <p>The walk is bounded ({@link Bound}). A ledger with more accounts than the bound is not judged in part and
 * passed: {@link #problems()} says how far the walk got, and the zero-sum check (a) fails with it, whatever the
 * accounts read show.
 *
 * @param accounts every account walked, by id, in creation order, with the balances each page answered
 * @param pages the {@code query_accounts} requests made (the probe past a full last page not counted)
 * @param complete whether the walk reached the newest account
 * @param lastTimestamp the ledger timestamp of the last account walked (0: none)
 */
public record LedgerAccountSet(
        Map<Id128, Account> accounts, int pages, boolean complete, long lastTimestamp, Bound bound) {

    /**
     * How far a walk goes: {@code pagesMax} requests of {@code pageSize} accounts.
     *
     * @param pageSize accounts per request, 1..{@link Ledger#BATCH_SIZE_MAX}
     * @param pagesMax requests per walk, 1..{@link #PAGES_MAX_LIMIT}
     */
    public record Bound(int pageSize, int pagesMax) {

        /**
         * 128 pages of 8,189: 1,048,192 accounts, about 250 MB of accounts in verify's 1 GiB heap; the demo seeds
         * a few hundred, a bench a few thousand.
         */
        public static final Bound DEFAULT = new Bound(Ledger.BATCH_SIZE_MAX, 128);

        /**
         * What a caller may ask for: about 4 million accounts, 1 GB of them held at once. A larger ledger needs a
         * verify that sums as it walks, not a larger bound.
         */
        static final int PAGES_MAX_LIMIT = 512;

        public Bound {
            Ledger.checkQueryLimit(pageSize);
            if (pagesMax < 1 || pagesMax > PAGES_MAX_LIMIT) {
                throw new IllegalArgumentException(
                        "an account walk reads 1.." + PAGES_MAX_LIMIT + " pages: " + pagesMax);
            }
        }

        long accountsMax() {
            return (long) pageSize * pagesMax;
        }
    }

    public LedgerAccountSet {
        accounts = Collections.unmodifiableMap(new LinkedHashMap<>(accounts));
        Objects.requireNonNull(bound);
    }

    /** Walks the BRL ledger's accounts from the oldest, at most {@code bound.pagesMax()} pages. */
    public static LedgerAccountSet walk(Ledger ledger, Bound bound) {
        Map<Id128, Account> accounts = new LinkedHashMap<>();
        long after = 0;
        int pages = 0;
        while (pages < bound.pagesMax()) {
            List<Account> page = ledger.queryAccounts(ChartOfAccounts.LEDGER_BRL, after, bound.pageSize());
            pages++;
            checkPage(page, after, bound.pageSize());
            for (Account account : page) {
                Check.that(
                        accounts.put(account.id(), account) == null,
                        "query_accounts answered account %s twice",
                        account.id());
            }
            if (!page.isEmpty()) {
                after = page.getLast().timestamp();
            }
            if (page.size() < bound.pageSize()) {
                return new LedgerAccountSet(accounts, pages, true, after, bound);
            }
        }
        // Every page was full: exactly the bound's worth of accounts is a whole walk, one more is not.
        boolean more =
                !ledger.queryAccounts(ChartOfAccounts.LEDGER_BRL, after, 1).isEmpty();
        return new LedgerAccountSet(accounts, pages, !more, after, bound);
    }

    /** The port's promises a walk relies on: a page within its limit, of this ledger, in creation order, after the cursor. */
    private static void checkPage(List<Account> page, long after, int limit) {
        Check.that(page.size() <= limit, "query_accounts answered %d accounts for a limit of %d", page.size(), limit);
        long previous = after;
        for (Account account : page) {
            Check.that(
                    account.ledger() == ChartOfAccounts.LEDGER_BRL,
                    "query_accounts of ledger %d answered account %s " + "of ledger %d",
                    ChartOfAccounts.LEDGER_BRL,
                    account.id(),
                    account.ledger());
            Check.that(
                    account.timestamp() > previous,
                    "query_accounts after %d answered account %s at %d, not after %d",
                    after,
                    account.id(),
                    account.timestamp(),
                    previous);
            previous = account.timestamp();
        }
    }

    /** Banks whose reserve or transit the ledger holds. */
    public Set<BankId> banks() {
        Set<BankId> banks = new LinkedHashSet<>();
        for (Id128 id : accounts.keySet()) {
            AccountKind kind = ChartOfAccounts.kindOf(id).orElse(null);
            if (kind == AccountKind.RESERVE || kind == AccountKind.TRANSIT) {
                ChartOfAccounts.bankOf(id).ifPresent(banks::add);
            }
        }
        return banks;
    }

    /** Customer accounts, in creation order. */
    public List<Id128> customers() {
        return accounts.keySet().stream().filter(ChartOfAccounts::isCustomer).toList();
    }

    /** Accounts outside the PIX chart of accounts: judged all the same (no money may move on them). */
    public List<Id128> others() {
        return accounts.keySet().stream().filter(id -> !inChart(id)).toList();
    }

    /**
     * Whether {@code id} is the central bank, a bank's reserve, transit or fraud holds, a customer, a payment's
     * returnable account or returns control, as the chart makes them.
     */
    static boolean inChart(Id128 id) {
        AccountKind kind = ChartOfAccounts.kindOf(id).orElse(null);
        if (kind == null) {
            return false;
        }
        return switch (kind) {
            case CENTRAL_BANK -> id.equals(ChartOfAccounts.centralBank());
            case RESERVE ->
                ChartOfAccounts.bankOf(id)
                        .map(bank -> id.equals(ChartOfAccounts.reserve(bank)))
                        .orElse(false);
            case TRANSIT ->
                ChartOfAccounts.bankOf(id)
                        .map(bank -> id.equals(ChartOfAccounts.transit(bank)))
                        .orElse(false);
            case CUSTOMER -> ChartOfAccounts.isCustomer(id);
            case RETURNABLE ->
                ChartOfAccounts.paymentOfReturnable(id)
                        .map(ChartOfAccounts::returnable)
                        .map(id::equals)
                        .orElse(false);
            case RETURNS_CONTROL -> id.equals(ChartOfAccounts.returnsControl());
            case FRAUD_HOLDS ->
                ChartOfAccounts.bankOf(id)
                        .map(bank -> id.equals(ChartOfAccounts.fraudHolds(bank)))
                        .orElse(false);
        };
    }

    /**
     * The accounts every checker judges (the demo report, verify, the bench's and chaos's checks): {@code named} (the
     * central bank, the banks' reserves and transits, the customers a checker knows of), then every account walked, in
     * creation order: returnable accounts, returns control and accounts outside the chart too, since any of them may
     * carry a payment's money and each must then be judged, not reported as unchecked.
     */
    public List<Id128> judged(Collection<Id128> named) {
        Set<Id128> all = new LinkedHashSet<>(named);
        all.addAll(accounts.keySet());
        return List.copyOf(all);
    }

    /**
     * The books of the accounts {@link #judged} names: balances as the walk read them; an id the walk did not reach
     * (created since, or past the bound) is looked up in the ledger now.
     */
    LedgerBooks books(Ledger ledger, Collection<Id128> named) {
        List<Id128> all = judged(named);
        return LedgerBooks.read(
                requested -> {
                    List<Id128> unwalked = requested.stream()
                            .filter(id -> !accounts.containsKey(id))
                            .toList();
                    Map<Id128, Account> looked = new LinkedHashMap<>();
                    if (!unwalked.isEmpty()) {
                        ledger.lookupAccounts(unwalked).forEach(account -> looked.put(account.id(), account));
                    }
                    return requested.stream()
                            .map(id -> accounts.containsKey(id) ? accounts.get(id) : looked.get(id))
                            .filter(Objects::nonNull)
                            .toList();
                },
                all,
                PixBooks::describe);
    }

    /** Empty for a whole walk; else the one problem that fails (a): the accounts past the bound are not judged. */
    List<String> problems() {
        if (complete) {
            return List.of();
        }
        return List.of(String.format(
                "the ledger holds more accounts than the walk reads (%d pages of %d = %d accounts; "
                        + "the rest, created after ledger timestamp %d, are not judged, so the books cannot be said to hold: "
                        + "raise the bound: verify's --account-pages-max, the launcher's VERIFY_ACCOUNT_PAGES_MAX)",
                pages, bound.pageSize(), bound.accountsMax(), lastTimestamp));
    }

    /** "N accounts on ledger 986 in P pages of query_accounts". */
    public String summary() {
        return String.format(
                "%d accounts on ledger %d in %d page%s of query_accounts%s",
                accounts.size(), ChartOfAccounts.LEDGER_BRL, pages, pages == 1 ? "" : "s", complete ? "" : ", NOT ALL");
    }
}
