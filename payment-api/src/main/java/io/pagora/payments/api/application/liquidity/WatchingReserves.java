package io.pagora.payments.api.application.liquidity;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Ledger;
import io.pagora.payments.api.domain.liquidity.ReserveWatch;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads every watched bank's reserve and records each crossing of its watermarks once, then tells it on the bank's
 * stream. A round costs one ledger request per {@link #PAGE_BANKS} watched banks, whatever the payment rate.
 *
 * <p>Every instance may run rounds: the store's compare-and-set lets one record a crossing, and a crossing recorded but
 * not yet told (the broker was down, the instance died) is told again by the next round of any instance, with the
 * same message id.
 */
public final class WatchingReserves {

    /** Banks read per ledger request: the ledger's own limit. */
    static final int PAGE_BANKS = Ledger.BATCH_SIZE_MAX;

    /** Pages per round: every ISPB could be watched, and the loop still ends. */
    static final int PAGES_MAX = BankId.ISPB_MAX / PAGE_BANKS + 1;

    /** A bank's reserve as the last round read it. */
    public record Reading(BankId bank, long availableCentavos, ReserveWatch.State state) {}

    /** What a round did: banks read, the crossings this instance recorded, and how many it told. */
    public record Round(int banksRead, List<ReserveWatch.Crossing> crossings, int told) {}

    private final LiquidityWatches watches;
    private final LiquidityNotices notices;
    private final Ledger ledger;
    private final Clock clock;
    private volatile List<Reading> readings = List.of();

    public WatchingReserves(LiquidityWatches watches, LiquidityNotices notices, Ledger ledger, Clock clock) {
        this.watches = watches;
        this.notices = notices;
        this.ledger = ledger;
        this.clock = clock;
    }

    /** One reading of every watched reserve. */
    public Round round() {
        List<Reading> read = new ArrayList<>();
        List<WatchedReserve> untold = new ArrayList<>();
        List<ReserveWatch.Crossing> crossed = new ArrayList<>();
        int after = -1;
        for (int page = 0; page < PAGES_MAX; page++) {
            List<WatchedReserve> watched = watches.page(after, PAGE_BANKS);
            Map<Id128, Account> reserves = reserves(watched);
            for (WatchedReserve bank : watched) {
                Account reserve = reserves.get(ChartOfAccounts.reserve(bank.bank()));
                if (reserve == null) {
                    continue; // registered on the ledger after its watermarks were set: nothing to read yet
                }
                long available = reserve.creditBalanceAvailable();
                Optional<WatchedReserve> now =
                        record(bank, bank.watch().read(available, bank.marks(), clock.instant()), available);
                if (now.isPresent() && now.get().sequence() > bank.sequence()) {
                    crossed.add(now.get().last().orElseThrow().crossing());
                }
                WatchedReserve current = now.orElse(bank);
                read.add(new Reading(bank.bank(), available, current.watch().state()));
                if (current.untold()) {
                    untold.add(current);
                }
            }
            if (watched.size() < PAGE_BANKS) {
                break;
            }
            after = watched.getLast().bank().ispb();
        }
        readings = List.copyOf(read);
        return new Round(read.size(), crossed, tell(untold));
    }

    /**
     * The operator funded {@code bank}'s reserve: an alert is cleared once the reserve is back at its low watermark,
     * without waiting for the high one. Answers whether this call recorded a crossing.
     */
    public boolean funded(BankId bank) {
        Optional<WatchedReserve> watched = watches.of(bank);
        if (watched.isEmpty()) {
            return false;
        }
        WatchedReserve before = watched.get();
        List<Account> found = ledger.lookupAccounts(List.of(ChartOfAccounts.reserve(bank)));
        if (found.isEmpty()) {
            return false;
        }
        long available = found.getFirst().creditBalanceAvailable();
        Optional<WatchedReserve> now =
                record(before, before.watch().funded(available, before.marks(), clock.instant()), available);
        now.filter(WatchedReserve::untold).ifPresent(crossed -> tell(List.of(crossed)));
        return now.isPresent() && now.get().sequence() > before.sequence();
    }

    /** Each watched bank's reserve as the last round read it, for the metrics. */
    public List<Reading> readings() {
        return readings;
    }

    /**
     * The watch after {@code observed}: itself when nothing crossed, the store's new state when this instance
     * recorded the crossing, empty when another did first (its next round reads the new state).
     */
    private Optional<WatchedReserve> record(WatchedReserve bank, ReserveWatch.Observed observed, long available) {
        if (observed.crossing().isEmpty()) {
            return Optional.of(bank);
        }
        if (!watches.cross(bank, observed.watch(), observed.crossing().get(), available)) {
            return Optional.empty();
        }
        return Optional.of(new WatchedReserve(
                bank.bank(),
                bank.marks(),
                observed.watch(),
                bank.sequence() + 1,
                bank.told(),
                Optional.of(new WatchedReserve.Crossed(observed.crossing().get(), available, bank.marks()))));
    }

    private Map<Id128, Account> reserves(List<WatchedReserve> watched) {
        Check.that(watched.size() <= PAGE_BANKS, "a page of at most %d banks: %d", PAGE_BANKS, watched.size());
        Map<Id128, Account> byId = new HashMap<>();
        if (watched.isEmpty()) {
            return byId;
        }
        for (Account account : ledger.lookupAccounts(watched.stream()
                .map(bank -> ChartOfAccounts.reserve(bank.bank()))
                .toList())) {
            byId.put(account.id(), account);
        }
        return byId;
    }

    private int tell(List<WatchedReserve> untold) {
        if (untold.isEmpty()) {
            return 0;
        }
        notices.tell(untold);
        for (WatchedReserve bank : untold) {
            watches.told(bank.bank(), bank.sequence());
        }
        return untold.size();
    }
}
