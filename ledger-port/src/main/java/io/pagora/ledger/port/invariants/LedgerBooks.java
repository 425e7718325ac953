package io.pagora.ledger.port.invariants;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountFlags;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.Transfer;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A closed set of ledger accounts as the ledger holds them (the accounts a test, a demo run or a
 * platform created, among which alone money moved), and the invariants the ledger alone must satisfy:
 * Σ debits = Σ credits per ledger, posted and pending; no limited account beyond its limit; nothing left
 * pending. Read through the {@link Ledger} port only, so TigerBeetle, the PostgreSQL ledger and the
 * reference model are judged alike. Sums are exact ({@link BigInteger}): an overflowing backend cannot
 * hide behind wrap-around.
 *
 * <p>Messages name an account by its id and, when the caller knows it, its role ({@code names}: e.g. the
 * settlement module's chart of accounts says "reserve of bank 1").
 */
public final class LedgerBooks {

    private final List<Id128> ids;
    private final Map<Id128, Account> found;
    private final List<String> lookupViolations;
    private final Function<Id128, String> names;

    private LedgerBooks(
            List<Id128> ids, Map<Id128, Account> found, List<String> lookupViolations, Function<Id128, String> names) {
        this.ids = List.copyOf(ids);
        this.found = Collections.unmodifiableMap(found);
        this.lookupViolations = List.copyOf(lookupViolations);
        this.names = names;
    }

    /** Reads {@code accountIds} from the ledger, in requests of at most {@link Ledger#BATCH_SIZE_MAX}. */
    public static LedgerBooks read(Ledger ledger, Collection<Id128> accountIds) {
        return read(ledger, accountIds, id -> "account");
    }

    /** As {@link #read(Ledger, Collection)}, naming accounts in messages by {@code names}. */
    public static LedgerBooks read(Ledger ledger, Collection<Id128> accountIds, Function<Id128, String> names) {
        return read(ledger::lookupAccounts, accountIds, names);
    }

    /** As above, through any account lookup with the port's contract (a test may hand in books no real ledger keeps). */
    public static LedgerBooks read(
            Function<List<Id128>, List<Account>> lookupAccounts,
            Collection<Id128> accountIds,
            Function<Id128, String> names) {
        List<Id128> ids = new ArrayList<>(new LinkedHashSet<>(accountIds));
        Map<Id128, Account> found = new LinkedHashMap<>();
        List<String> violations = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += Ledger.BATCH_SIZE_MAX) {
            List<Id128> batch = List.copyOf(ids.subList(from, Math.min(ids.size(), from + Ledger.BATCH_SIZE_MAX)));
            List<Account> answer = lookupAccounts.apply(batch);
            List<Id128> answered = answer.stream().map(Account::id).toList();
            // The port promises request order; a reordering backend would pair balances with the wrong accounts.
            if (!answered.equals(batch.stream().filter(answered::contains).toList())) {
                violations.add("the ledger answered an account lookup out of request order: " + answered);
            }
            answer.forEach(account -> found.put(account.id(), account));
        }
        for (Id128 id : ids) {
            if (!found.containsKey(id)) {
                violations.add(names.apply(id) + " " + id + " is not in the ledger");
            }
        }
        return new LedgerBooks(ids, found, violations, names);
    }

    /** The accounts asked for, without repeats, in the order given. */
    public List<Id128> ids() {
        return ids;
    }

    /** The accounts the ledger returned, by id. */
    public Map<Id128, Account> found() {
        return found;
    }

    /** The accounts found, in request order. */
    public List<Account> accounts() {
        return List.copyOf(found.values());
    }

    /** Every account exists, and Σ debits = Σ credits on every ledger, posted and pending. */
    public Finding zeroSum() {
        Finding.Violations violations = new Finding.Violations();
        violations.addAll(lookupViolations);
        Map<Integer, BigInteger[]> sumsByLedger = new TreeMap<>();
        BigInteger[] total = zeros();
        for (Account account : found.values()) {
            add(sumsByLedger.computeIfAbsent(account.ledger(), ledger -> zeros()), account);
            add(total, account);
        }
        sumsByLedger.forEach((ledger, sums) -> {
            if (!sums[0].equals(sums[1])) {
                violations.add("ledger " + ledger + ": Σ debits_posted " + sums[0] + " ≠ Σ credits_posted " + sums[1]);
            }
            if (!sums[2].equals(sums[3])) {
                violations.add(
                        "ledger " + ledger + ": Σ debits_pending " + sums[2] + " ≠ Σ credits_pending " + sums[3]);
            }
        });
        String summary = String.format(
                "%d of %d accounts found: Σdebits_posted=%s Σcredits_posted=%s, "
                        + "Σdebits_pending=%s Σcredits_pending=%s",
                found.size(), ids.size(), total[0], total[1], total[2], total[3]);
        return violations.finding("ledger zero-sum", summary);
    }

    /**
     * No account with {@code debits_must_not_exceed_credits} has debits_posted + debits_pending &gt;
     * credits_posted, none with {@code credits_must_not_exceed_debits} has credits_posted + credits_pending
     * &gt; debits_posted; and every account {@code mustBeDebitLimited} names carries the first flag.
     */
    public Finding limits(Predicate<Id128> mustBeDebitLimited) {
        Finding.Violations violations = new Finding.Violations();
        int limited = 0;
        BigInteger lowestAvailable = null;
        for (Account account : found.values()) {
            boolean debitLimited = account.hasFlag(AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS);
            if (mustBeDebitLimited.test(account.id()) && !debitLimited) {
                violations.add(
                        names.apply(account.id()) + " " + account.id() + " lacks debits_must_not_exceed_credits");
            }
            if (debitLimited) {
                limited++;
                BigInteger available = big(account.creditsPosted())
                        .subtract(big(account.debitsPosted()))
                        .subtract(big(account.debitsPending()));
                lowestAvailable = lowestAvailable == null ? available : lowestAvailable.min(available);
                if (available.signum() < 0) {
                    violations.add(names.apply(account.id()) + " " + account.id() + " is below zero: credits_posted "
                            + account.creditsPosted() + " − debits_posted " + account.debitsPosted()
                            + " − debits_pending " + account.debitsPending() + " = " + available);
                }
            }
            if (account.hasFlag(AccountFlags.CREDITS_MUST_NOT_EXCEED_DEBITS)) {
                limited++;
                BigInteger available = big(account.debitsPosted())
                        .subtract(big(account.creditsPosted()))
                        .subtract(big(account.creditsPending()));
                if (available.signum() < 0) {
                    violations.add(
                            names.apply(account.id()) + " " + account.id() + " exceeds its credit limit: debits_posted "
                                    + account.debitsPosted() + " − credits_posted " + account.creditsPosted()
                                    + " − credits_pending " + account.creditsPending() + " = " + available);
                }
            }
        }
        String summary = String.format(
                "%d limited accounts, lowest available balance %s centavos",
                limited, lowestAvailable == null ? "-" : lowestAvailable);
        return violations.finding("no limited account below zero", summary);
    }

    /** Nothing is reserved any more: every pending transfer was posted, voided or expired. */
    public Finding nothingPending() {
        Finding.Violations violations = new Finding.Violations();
        for (Account account : found.values()) {
            if (account.debitsPending() != 0 || account.creditsPending() != 0) {
                violations.add(names.apply(account.id()) + " " + account.id() + " still holds debits_pending "
                        + account.debitsPending() + ", credits_pending " + account.creditsPending());
            }
        }
        return violations.finding("nothing left pending", found.size() + " accounts without pending amounts");
    }

    /** Checks the flags that are there, requires none. */
    public Finding limits() {
        return limits(id -> false);
    }

    /** Looks transfers up in requests of at most {@link Ledger#BATCH_SIZE_MAX}. */
    public static Map<Id128, Transfer> lookupTransfers(Ledger ledger, List<Id128> ids) {
        return lookup(ids, ledger::lookupTransfers, Transfer::id);
    }

    /** Looks ids up in requests of at most {@link Ledger#BATCH_SIZE_MAX}. */
    public static <T> Map<Id128, T> lookup(
            List<Id128> ids, Function<List<Id128>, List<T>> lookup, Function<T, Id128> idOf) {
        Map<Id128, T> found = new LinkedHashMap<>();
        for (int from = 0; from < ids.size(); from += Ledger.BATCH_SIZE_MAX) {
            List<Id128> batch = ids.subList(from, Math.min(ids.size(), from + Ledger.BATCH_SIZE_MAX));
            for (T item : lookup.apply(List.copyOf(batch))) {
                found.put(idOf.apply(item), item);
            }
        }
        return found;
    }

    private static BigInteger[] zeros() {
        return new BigInteger[] {BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO};
    }

    private static void add(BigInteger[] sums, Account account) {
        sums[0] = sums[0].add(big(account.debitsPosted()));
        sums[1] = sums[1].add(big(account.creditsPosted()));
        sums[2] = sums[2].add(big(account.debitsPending()));
        sums[3] = sums[3].add(big(account.creditsPending()));
    }

    private static BigInteger big(long value) {
        return BigInteger.valueOf(value);
    }
}
